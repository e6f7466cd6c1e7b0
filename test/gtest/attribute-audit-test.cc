/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The audit of what the job programs take from a command line (issue 32, item 6): the user
 * doc's table lists exactly the attributes of the types the job programs create and the
 * global values, each row says what happens to it (honoured, set by a flag, refused), and
 * the command line does that; and a job refuses an attribute that acts on none of its runs.
 */

#include "ns3/attribute-audit.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/job-builder.h"
#include "ns3/job-runner.h"
#include "ns3/rail-fabric-spec.h"
#include "ns3/string.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return the table of doc/photonic-rails-user.rst between its audit markers: attribute ->
///         what its row says, continuation lines joined and ``markup`` removed
std::map<std::string, std::string>
DocTable()
{
    std::ifstream doc(PR_SOURCE_DIR "/doc/photonic-rails-user.rst");
    std::map<std::string, std::string> rows;
    std::string last;
    bool inside = false;
    int borders = 0;
    for (std::string line; std::getline(doc, line);)
    {
        inside = (inside || line == ".. attribute-audit-begin") && line != ".. attribute-audit-end";
        if (!inside || line.empty() || line[0] == '.')
        {
            continue;
        }
        if (line.rfind("==", 0) == 0)
        {
            ++borders;
            continue;
        }
        if (borders == 2 && line.rfind("``", 0) == 0) // a row; the header is above border 2
        {
            std::size_t end = line.find("``", 2);
            last = line.substr(2, end - 2);
            rows[last] = line.substr(line.find_first_not_of(' ', end + 2));
        }
        else if (borders == 2)
        {
            rows[last] += " " + line.substr(line.find_first_not_of(' '));
        }
    }
    for (auto& [name, says] : rows)
    {
        says = std::regex_replace(says, std::regex("``"), "");
    }
    return rows;
}

/// \return every attribute, by its own type, of the types the job programs create and of
///         their parents, and every global value
std::set<std::string>
JobAttributes()
{
    std::set<std::string> names;
    for (const std::string& type : AttributeAudit::JobTypes())
    {
        for (TypeId t = TypeId::LookupByName(type); t != ObjectBase::GetTypeId(); t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                names.insert(t.GetName() + "::" + t.GetAttribute(i).name);
            }
        }
    }
    for (auto global = GlobalValue::Begin(); global != GlobalValue::End(); ++global)
    {
        names.insert((*global)->GetName());
    }
    return names;
}

/// \return the value of attribute or global value \p name as ns-3 prints it (its default)
std::string
Default(const std::string& name)
{
    std::size_t cut = name.rfind("::");
    if (cut == std::string::npos)
    {
        StringValue value;
        GlobalValue::GetValueByName(name, value);
        return value.Get();
    }
    TypeId::AttributeInformation info;
    TypeId::LookupByName(name.substr(0, cut)).LookupAttributeByName(name.substr(cut + 2), &info);
    return info.initialValue->SerializeToString(info.checker);
}

/// \return the message the job programs' command line refuses --\p name=\p value with, or ""
std::string
JobError(const std::string& name, const std::string& value)
{
    JobOptions o;
    StrictCommandLine cmd(__FILE__, "test");
    o.AddFlags(cmd);
    std::string program = "program";
    std::string arg = "--" + name + "=" + value;
    std::vector<char*> argv = {program.data(), arg.data()};
    std::string error;
    try
    {
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }
    catch (const std::invalid_argument& e)
    {
        error = e.what();
    }
    Config::Reset(); // the defaults as they were, for the next case
    return error;
}

/// \return why \p attribute has no effect on \p fabric with \p gpusPerServer GPUs per
///         server in network model \p model ("" if it acts)
std::string
Inert(const std::string& attribute,
      const std::string& fabric,
      uint32_t gpusPerServer = 1,
      const std::string& model = "packet")
{
    JobFabric f = JobFabric::Parse(fabric);
    RailFabricSpec spec;
    spec.kind = f.kind;
    spec.gpusPerServer = gpusPerServer;
    JobBuilder builder(spec, f);
    builder.SetNetworkModel(model);
    return builder.WhyInert(attribute);
}

} // namespace

TEST(AttributeAudit, TheUserDocListsEveryAttribute)
{
    std::map<std::string, std::string> table = DocTable();
    std::set<std::string> listed;
    for (const auto& row : table)
    {
        listed.insert(row.first);
    }
    // 76 attributes of 25 types (the group's 23 and their parents, ns-3's four), 5 globals.
    EXPECT_EQ(listed, JobAttributes());
    EXPECT_EQ(listed.size(), 81u);
}

TEST(AttributeAudit, EachAttributeDoesWhatItsRowSays)
{
    for (const auto& [name, says] : DocTable())
    {
        std::string error = JobError(name, Default(name));
        if (says.rfind("honoured", 0) == 0)
        {
            EXPECT_EQ(error, "") << name;
        }
        else if (says.rfind("set by ", 0) == 0)
        {
            // The flags as the row names them, up to the other programs' (after a ';').
            std::string flags = says.substr(7, says.find(';') - 7);
            EXPECT_NE(error.find("this program sets"), std::string::npos) << name << ": " << error;
            EXPECT_NE(error.find("from " + flags), std::string::npos) << name << ": " << error;
        }
        else if (says.rfind("refused: ", 0) == 0)
        {
            EXPECT_NE(error.find(says.substr(9)), std::string::npos) << name << ": " << error;
        }
        else
        {
            ADD_FAILURE() << name << ": the row says neither honoured, set by nor refused";
        }
    }
}

TEST(AttributeAudit, AnAttributeActsWhereItsObjectsAre)
{
    // Electrical rails make electrical switches; optical rails only between a server's GPUs.
    EXPECT_EQ(Inert("ns3::EpsSwitch::BufferSize", "eps"), "");
    EXPECT_EQ(Inert("ns3::EpsSwitch::BufferSize", "ocs"),
              "it has no electrical link or switch (optical rails, one GPU per server)");
    EXPECT_EQ(Inert("ns3::EpsChannel::Delay", "ocs"),
              "it has no electrical link or switch (optical rails, one GPU per server)");
    EXPECT_EQ(Inert("ns3::EpsSwitch::BufferSize", "ocs", 2), "");
    EXPECT_EQ(Inert("ns3::EpsSwitch::BufferSize", "emulated"), ""); // electrical rails
    EXPECT_EQ(Inert("ns3::OcsNetDevice::FiberDelay", "eps"), "it has no optical rails");
    EXPECT_EQ(Inert("ns3::OcsNetDevice::NoCircuitPolicy", "ocs"), "");
    // Only electrical rail switches mark ECN, and DCQCN reacts to the marks.
    const std::string ecn =
        "ECN marks and DCQCN are on electrical rails only (scale-up switches never mark)";
    EXPECT_EQ(Inert("ns3::EpsSwitch::EcnKmin", "ocs", 2), ecn);
    EXPECT_EQ(Inert("ns3::RailTransport::DcqcnG", "ocs"), ecn);
    EXPECT_EQ(Inert("ns3::RailTransport::CnpInterval", "eps-clos"), "");
    EXPECT_EQ(Inert("ns3::RailTransport::Window", "ocs"), "");
}

TEST(AttributeAudit, TheFlowModelTakesTheHopDelaysOnly)
{
    const std::string flow = "the flow model has no frames, queues, switches or transport (of "
                             "the fabric's attributes it takes the hop delays only)";
    EXPECT_EQ(Inert("ns3::RailTransport::Window", "eps", 1, "flow"), flow);
    EXPECT_EQ(Inert("ns3::EpsSwitch::BufferSize", "eps", 1, "flow"), flow);
    EXPECT_EQ(Inert("ns3::RailNetDevice::InterframeGap", "ocs", 1, "flow"), flow);
    EXPECT_EQ(Inert("ns3::EpsChannel::Delay", "eps", 1, "flow"), "");
    EXPECT_EQ(Inert("ns3::EpsSwitch::ProcessingDelay", "eps-clos", 1, "flow"), "");
    EXPECT_EQ(Inert("ns3::OcsNetDevice::FiberDelay", "ocs", 1, "flow"), "");
    // Its own attributes act on it only.
    EXPECT_EQ(Inert("ns3::FlowTransport::RetransmitTimeout", "eps", 1, "flow"), "");
    EXPECT_EQ(Inert("ns3::FlowTransport::RetransmitTimeout", "eps", 1, "packet"),
              "it belongs to the flow model (--network=flow)");
}

TEST(AttributeAudit, OpusAttributesActWhereOpusRuns)
{
    const std::string requests =
        "only Opus on optical rails (ocs, ocs-provisioning, ocs-oracle) takes requests";
    for (const char* fabric : {"ocs", "ocs-provisioning", "ocs-oracle"})
    {
        EXPECT_EQ(Inert("ns3::OpusController::BatchWindow", fabric), "") << fabric;
        EXPECT_NE(Inert("ns3::OpusShim::Ignore", fabric), "") << fabric;
    }
    for (const char* fabric : {"eps", "ocs-static", "emulated"})
    {
        EXPECT_EQ(Inert("ns3::OpusController::BatchWindow", fabric), requests) << fabric;
    }
    EXPECT_EQ(Inert("ns3::OpusShim::Ignore", "emulated-provisioning"), "");
    EXPECT_EQ(Inert("ns3::OpusShim::Ignore", "eps"),
              "it is for the testbed emulation on electrical rails (emulated, "
              "emulated-provisioning): on optical rails every communication needs its circuits");
}

TEST(AttributeAudit, ECNSettingsActWhileSwitchesMark)
{
    Config::SetDefault("ns3::EpsSwitch::EcnEnabled", BooleanValue(false));
    const std::string off = "its switches mark no ECN (ns3::EpsSwitch::EcnEnabled is false)";
    EXPECT_EQ(Inert("ns3::EpsSwitch::EcnPmax", "eps"), off);
    EXPECT_EQ(Inert("ns3::RailTransport::DcqcnRateAi", "eps"), off);
    EXPECT_EQ(Inert("ns3::EpsSwitch::EcnEnabled", "eps"), "");
    Config::Reset();
    EXPECT_EQ(Inert("ns3::EpsSwitch::EcnPmax", "eps"), "");
}

TEST(AttributeAudit, DcqcnSettingsActUnlessTheProfileIsPfcOnly)
{
    Config::SetDefault("ns3::RailTransport::DcqcnProfile", StringValue("pfc-only"));
    const std::string off = "no QP runs DCQCN (ns3::RailTransport::DcqcnProfile is pfc-only)";
    EXPECT_EQ(Inert("ns3::RailTransport::DcqcnRateAi", "eps"), off);
    EXPECT_EQ(Inert("ns3::RailTransport::CnpInterval", "eps-clos"), off);
    EXPECT_EQ(Inert("ns3::RailTransport::DcqcnProfile", "eps"), "");
    EXPECT_EQ(Inert("ns3::EpsSwitch::EcnPmax", "eps"), "") << "the switches still mark";
    Config::Reset();
    EXPECT_EQ(Inert("ns3::RailTransport::DcqcnRateAi", "eps"), "");
}
