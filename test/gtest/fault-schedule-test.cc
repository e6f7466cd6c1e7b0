// FaultSchedule: the --fault and --faults forms, and the checks against a fabric (issue 15).
#include "ns3/fault-schedule.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>

using namespace ns3;

namespace
{

/// The message \p f throws, or "accepted".
template <typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const std::exception& e) // invalid_argument, or InputFileError for a file
    {
        return e.what();
    }
    return "accepted";
}

/// 4 servers x 4 GPUs, 2 NIC ports each: 8 ports per rail.
RailFabricSpec
Spec(RailKind kind)
{
    RailFabricSpec spec;
    spec.servers = 4;
    spec.gpusPerServer = 4;
    spec.nicPorts = 2;
    spec.kind = kind;
    // eps-clos: 4 leaves of 2 NICs, 2 spines (eps: one 64-port switch)
    spec.switchRadix = kind == RailKind::EPS_CLOS ? 4 : 64;
    return spec;
}

/// Why \p text is refused on \p kind's rails, or "" if it fits.
std::string
Misfit(const std::string& text, RailKind kind)
{
    return Fault::Parse(text).CheckAgainst(Spec(kind));
}

} // namespace

TEST(FaultSchedule, ReadsEveryKindInline)
{
    Fault nic = Fault::Parse("nic:gpu5.port1@1.2s");
    EXPECT_EQ(nic.kind, Fault::NIC);
    EXPECT_EQ(nic.gpu, 5u);
    EXPECT_EQ(nic.port, 1u);
    EXPECT_EQ(nic.down, MilliSeconds(1200));
    EXPECT_FALSE(nic.IsRepaired());
    EXPECT_EQ(nic.part, "nic:gpu5.port1");

    Fault link = Fault::Parse("link:rail2.leaf1-spine0.1@10ms-250ms");
    EXPECT_EQ(link.kind, Fault::LINK);
    EXPECT_EQ(link.rail, 2u);
    EXPECT_EQ(link.leaf, 1u);
    EXPECT_EQ(link.spine, 0u);
    EXPECT_EQ(link.cable, 1u);
    EXPECT_EQ(link.up, MilliSeconds(250));
    EXPECT_EQ(Fault::Parse("link:rail0.leaf1-spine3@0").cable, 0u);
    // An exponent's minus is not the separator; leading zeros are just zeros.
    Fault exponent = Fault::Parse("nic:gpu00000000001.port0@1e-3s-2e-3s");
    EXPECT_EQ(exponent.gpu, 1u);
    EXPECT_EQ(exponent.down, MilliSeconds(1));
    EXPECT_EQ(exponent.up, MilliSeconds(2));

    Fault spine = Fault::Parse("switch:rail1.spine3@1us");
    EXPECT_TRUE(spine.isSpine);
    EXPECT_EQ(spine.spine, 3u);
    EXPECT_FALSE(Fault::Parse("switch:rail1.leaf2@1us").isSpine);
    EXPECT_TRUE(Fault::Parse("switch:rail1@1us").isRail);
    EXPECT_EQ(Fault::Parse("ocs-port:rail3.port7@5ms").port, 7u);
    EXPECT_EQ(Fault::Parse("ocs:rail3@5ms").kind, Fault::OCS);
    EXPECT_EQ(Fault::Parse("ocs-reconfig:rail0@0").kind, Fault::OCS_RECONFIG);
    Fault gpu = Fault::Parse("gpu:gpu7@1s");
    EXPECT_EQ(gpu.kind, Fault::GPU);
    EXPECT_EQ(gpu.gpu, 7u);
    EXPECT_TRUE(gpu.StopsJob());
    Fault server = Fault::Parse("server:3@1s-2s");
    EXPECT_EQ(server.kind, Fault::SERVER);
    EXPECT_EQ(server.server, 3u);
    EXPECT_EQ(server.part, "server:3");
    Fault controller = Fault::Parse("controller@50ms-100ms");
    EXPECT_EQ(controller.kind, Fault::CONTROLLER);
    EXPECT_EQ(controller.part, "controller");
    EXPECT_EQ(controller.up, MilliSeconds(100));
    EXPECT_FALSE(controller.StopsJob());
}

TEST(FaultSchedule, RefusesMalformedEntriesInOneLine)
{
    auto parse = [](const std::string& text) { return Refusal([&] { Fault::Parse(text); }); };
    EXPECT_EQ(parse("nic:gpu5.port1"),
              "fault \"nic:gpu5.port1\": expected KIND:PART@TIME or KIND:PART@DOWN-UP (e.g. "
              "nic:gpu5.port1@1.2s, or controller@1s)");
    EXPECT_EQ(parse("fan:gpu5@1s"),
              "fault \"fan:gpu5@1s\": unknown kind \"fan\" (nic, link, switch, ocs-port, ocs, "
              "ocs-reconfig, gpu, server, controller)");
    EXPECT_EQ(parse("controller:rail0@1s"),
              "fault \"controller:rail0@1s\": controller part \"rail0\" is not empty (write "
              "controller@TIME)");
    EXPECT_EQ(parse("server@1s"), "fault \"server@1s\": server part \"\" is not a server number");
    EXPECT_EQ(parse("gpu:3@1s"), "fault \"gpu:3@1s\": gpu part \"3\" is not gpuG");
    EXPECT_EQ(parse("nic:gpu5@1s"), "fault \"nic:gpu5@1s\": nic part \"gpu5\" is not gpuG.portK");
    EXPECT_EQ(parse("nic:gpu5.port0@soon"),
              "fault \"nic:gpu5.port0@soon\": 'soon' is not a duration (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(parse("nic:gpu5.port0@2"),
              "fault \"nic:gpu5.port0@2\": '2' has no unit (e.g. 25ms, 1.5s, 100us)");
    EXPECT_EQ(parse("nic:gpu5.port0@2s-1s"),
              "fault \"nic:gpu5.port0@2s-1s\": the repair time must be after the failure");
    EXPECT_EQ(parse("ocs-reconfig:rail0@1s-2s"),
              "fault \"ocs-reconfig:rail0@1s-2s\": a failed reconfiguration has no repair time");
    EXPECT_EQ(parse("nic:gpu99999999999.port0@1s"),
              "fault \"nic:gpu99999999999.port0@1s\": 99999999999 is too large");
    EXPECT_EQ(parse("nic:gpu5.port0@-1ms"),
              "fault \"nic:gpu5.port0@-1ms\": '-1ms' is not a duration (e.g. 25ms, 1.5s, 100us)");
}

TEST(FaultSchedule, ChecksPartsAgainstTheFabric)
{
    EXPECT_EQ(Misfit("nic:gpu15.port1@1s", RailKind::EPS), "");
    EXPECT_EQ(Misfit("nic:gpu16.port0@1s", RailKind::OCS),
              "fault \"nic:gpu16.port0@1s\": no GPU 16 (there are 16)");
    EXPECT_EQ(Misfit("nic:gpu0.port2@1s", RailKind::EPS),
              "fault \"nic:gpu0.port2@1s\": no NIC port 2 (there are 2)");
    EXPECT_EQ(Misfit("ocs-port:rail0.port7@1s", RailKind::OCS), "");
    EXPECT_EQ(Misfit("ocs-port:rail0.port8@1s", RailKind::OCS),
              "fault \"ocs-port:rail0.port8@1s\": no OCS port 8 (there are 8)");
    EXPECT_EQ(Misfit("ocs:rail4@1s", RailKind::OCS),
              "fault \"ocs:rail4@1s\": no rail 4 (there are 4)");
    EXPECT_EQ(Misfit("ocs:rail0@1s", RailKind::EPS),
              "fault \"ocs:rail0@1s\": an OCS fault on electrical rails");
    EXPECT_EQ(Misfit("switch:rail0@1s", RailKind::OCS),
              "fault \"switch:rail0@1s\": a packet-switch fault on optical rails");
    EXPECT_EQ(Misfit("switch:rail0@1s", RailKind::EPS), "");
    EXPECT_EQ(Misfit("switch:rail0@1s", RailKind::EPS_CLOS),
              "fault \"switch:rail0@1s\": a Clos rail has leaves and spines: name railR.leafL "
              "or railR.spineS");
    EXPECT_EQ(Misfit("switch:rail0.spine1@1s", RailKind::EPS_CLOS), "");
    EXPECT_EQ(Misfit("switch:rail0.spine2@1s", RailKind::EPS_CLOS),
              "fault \"switch:rail0.spine2@1s\": no spine 2 (there are 2)");
    EXPECT_EQ(Misfit("link:rail0.leaf3-spine1@1s", RailKind::EPS_CLOS), "");
    EXPECT_EQ(Misfit("link:rail0.leaf4-spine1@1s", RailKind::EPS_CLOS),
              "fault \"link:rail0.leaf4-spine1@1s\": no leaf 4 (there are 4)");
    EXPECT_EQ(Misfit("link:rail0.leaf0-spine0.1@1s", RailKind::EPS_CLOS),
              "fault \"link:rail0.leaf0-spine0.1@1s\": no parallel cable 1 (there is 1)");
    EXPECT_EQ(Misfit("link:rail0.leaf0-spine0@1s", RailKind::EPS),
              "fault \"link:rail0.leaf0-spine0@1s\": a single-switch rail has no leaf-spine "
              "cable (fail switch:railR, or a nic)");
    // eps beyond one switch's radix is built as a Clos, and its parts are named so (the rail
    // switch used to fail its first leaf only).
    RailFabricSpec wide = Spec(RailKind::EPS);
    wide.switchRadix = 4;
    EXPECT_EQ(Fault::Parse("switch:rail0@1s").CheckAgainst(wide),
              "fault \"switch:rail0@1s\": a Clos rail has leaves and spines: name railR.leafL "
              "or railR.spineS");
    EXPECT_EQ(Fault::Parse("link:rail0.leaf3-spine1@1s").CheckAgainst(wide), "");
}

TEST(FaultSchedule, ReadsFilesAndKeepsTimeOrder)
{
    std::string path = ::testing::TempDir() + "faults.json";
    {
        std::ofstream out(path);
        out << R"({"faults": ["nic:gpu1.port0@3ms",
                    {"part": "ocs-port:rail0.port2", "at": "1ms", "until": "2ms"}]})";
    }
    FaultSchedule schedule = FaultSchedule::Read(path, "ocs:rail1@2ms,nic:gpu0.port0@1ms");
    const auto& faults = schedule.GetFaults();
    ASSERT_EQ(faults.size(), 4u);
    EXPECT_EQ(faults[0].part, "ocs-port:rail0.port2"); // 1 ms, from the file: first
    EXPECT_EQ(faults[0].up, MilliSeconds(2));
    EXPECT_EQ(faults[1].part, "nic:gpu0.port0"); // 1 ms, inline
    EXPECT_EQ(faults[2].part, "ocs:rail1");
    EXPECT_EQ(faults[3].part, "nic:gpu1.port0");
    {
        std::ofstream out(path);
        out << R"([{"part": "nic:gpu1.port0", "at": "1ms", "when": "now"}])";
    }
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path, ""); }),
              path + ": fault 1: unknown key \"when\" (part, at, until)");
    {
        std::ofstream out(path);
        out << "{\"faults\": 3}";
    }
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path, ""); }),
              path + ": must hold a JSON array of faults (or {\"faults\": [...]})");
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path + ".missing", ""); }),
              path + ".missing: cannot open the file");
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(::testing::TempDir(), ""); }),
              ::testing::TempDir() + ": is a directory, not a JSON fault list");
    {
        std::ofstream out(path);
        out << R"({"faults": [], "fautls": 3})";
    }
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path, ""); }),
              path + ": the object holds \"faults\" only");
    {
        std::ofstream out(path);
        out << R"([{"part": "nic:gpu1.port0@5ms", "at": "1ms"}])";
    }
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path, ""); }),
              path + ": fault 1: \"part\" names the part only (e.g. nic:gpu5.port1); the time "
                     "goes in \"at\"");
    std::remove(path.c_str());
}

// Issue 33, item 3: a key given twice in a fault was accepted, the later value silently
// winning (here the failure would have been at 2 ms). Issue 34, item 2: a named pipe
// blocked the program forever. Both are refused in one line, as every JSON input is.
TEST(FaultSchedule, RefusesDuplicateKeysAndPipes)
{
    std::string path = ::testing::TempDir() + "faults-duplicate.json";
    {
        std::ofstream out(path);
        out << R"({"faults": ["nic:gpu0.port0@1ms",
                              {"part": "nic:gpu1.port0", "at": "1ms", "at": "2ms"}]})";
    }
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(path, ""); }),
              path + ": field 'faults[1].at': duplicate key 'at': a key may appear once per "
                     "object (the earlier value would be silently dropped)");
    std::remove(path.c_str());
    std::string fifo = ::testing::TempDir() + "faults-fifo";
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(Refusal([&] { FaultSchedule::Read(fifo, ""); }),
              fifo + ": is not a regular file (a named pipe)");
    std::remove(fifo.c_str());
}
