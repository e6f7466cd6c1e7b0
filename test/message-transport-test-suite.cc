/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MessageTransport contract (C1-C7 in message-transport.h), checked through the abstract
 * interface on every network model: the packet model (RailTransport, built by
 * RailFabricHelper) and the flow model (FlowTransport, built by FlowFabricHelper).
 */

#include "job-test-bed.h"

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <functional>
#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// A network model under test: builds a fabric and gives each GPU's transport.
struct NetworkModel
{
    std::string name;                                      //!< For messages
    std::function<Ptr<RailNetwork>(RailFabricSpec)> build; //!< Builds a fabric
};

/// The models the contract is checked on.
std::vector<NetworkModel>
Models()
{
    return {{"ns3::RailTransport (packet)", &JobBed::BuildPacket},
            {"ns3::FlowTransport (flow)", &JobBed::BuildFlow}};
}

/// A received message: (source GPU, message id).
std::pair<uint32_t, uint64_t>
Key(uint32_t source, uint64_t id)
{
    return {source, id};
}

/// What the callbacks of one GPU's transport saw.
struct Observed
{
    std::map<uint64_t, uint32_t> sentCount;                 //!< id -> sent callbacks
    std::map<uint64_t, double> sentNs;                      //!< id -> when
    std::map<std::pair<uint32_t, uint64_t>, uint32_t> got;  //!< (source, id) -> receipts
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> size; //!< (source, id) -> bytes
    std::map<std::pair<uint32_t, uint64_t>, double> gotNs;  //!< (source, id) -> when
};

/// Installs receive callbacks on every GPU, filling observed[gpu].
void
Watch(Ptr<RailNetwork> fabric, std::vector<Observed>& observed)
{
    observed.assign(fabric->GetGpus().GetN(), Observed());
    for (uint32_t gpu = 0; gpu < observed.size(); ++gpu)
    {
        Ptr<MessageTransport> transport = fabric->GetMessageTransport(gpu);
        Observed* o = &observed[gpu];
        transport->SetReceiveCallback(
            MessageTransport::ReceiveCallback([o](uint32_t source, uint64_t id, uint64_t bytes) {
                ++o->got[Key(source, id)];
                o->size[Key(source, id)] = bytes;
                o->gotNs[Key(source, id)] = Simulator::Now().GetNanoSeconds();
            }));
    }
}

/// Sends through the abstract interface, recording the sent callback at the sender.
uint64_t
SendWatched(Ptr<MessageTransport> transport, uint32_t peer, uint64_t bytes, Observed& sender)
{
    Observed* o = &sender;
    return transport->Send(peer, bytes, MessageTransport::SentCallback([o](uint64_t id) {
                               ++o->sentCount[id];
                               o->sentNs[id] = Simulator::Now().GetNanoSeconds();
                           }));
}

} // namespace

/**
 * C1, C2, C3, C7: three messages from one GPU to a GPU of another server get ids 1, 2, 3
 * before any callback, each is received once with its size, then its sent callback fires
 * once, and the counters add up.
 */
class TransportIdsAndCallbacksTestCase : public TestCase
{
  public:
    TransportIdsAndCallbacksTestCase()
        : TestCase("transport contract: ids, callbacks once and in order, counters")
    {
    }

  private:
    void DoRun() override
    {
        for (const NetworkModel& model : Models())
        {
            Ptr<RailNetwork> fabric = model.build(Spec(2, RailKind::EPS, 2));
            std::vector<Observed> observed;
            Watch(fabric, observed);
            Ptr<MessageTransport> sender = fabric->GetMessageTransport(0);
            std::vector<uint64_t> sizes = {1, 4096 * 3 + 5, 1 << 20};
            for (uint64_t k = 0; k < sizes.size(); ++k)
            {
                uint64_t id = SendWatched(sender, 2, sizes[k], observed[0]);
                NS_TEST_EXPECT_MSG_EQ(id, k + 1, model.name << ": ids count from 1 (C2)");
                NS_TEST_EXPECT_MSG_EQ(observed[0].sentCount.count(id) + observed[2].got.size(),
                                      0,
                                      model.name << ": no callback inside Send (C1)");
            }
            Simulator::Run();
            uint64_t bytes = 0;
            for (uint64_t id = 1; id <= sizes.size(); ++id)
            {
                NS_TEST_EXPECT_MSG_EQ(observed[2].got[Key(0, id)],
                                      1,
                                      model.name << ": received once");
                NS_TEST_EXPECT_MSG_EQ(observed[2].size[Key(0, id)], sizes[id - 1], "its size");
                NS_TEST_EXPECT_MSG_EQ(observed[0].sentCount[id], 1, model.name << ": sent once");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(observed[0].sentNs[id],
                                            observed[2].gotNs[Key(0, id)],
                                            model.name << ": sent never before received (C3)");
                bytes += sizes[id - 1];
            }
            MessageTransportCounters out = sender->GetMessageCounters();
            MessageTransportCounters in = fabric->GetMessageTransport(2)->GetMessageCounters();
            NS_TEST_EXPECT_MSG_EQ(out.messagesSent, 3, model.name << ": messages sent (C7)");
            NS_TEST_EXPECT_MSG_EQ(in.messagesReceived, 3, model.name << ": messages received");
            NS_TEST_EXPECT_MSG_EQ(in.payloadBytesDelivered, bytes, model.name << ": bytes");
            NS_TEST_EXPECT_MSG_EQ(sender->GetPendingMessageCount(), 0, "nothing pending");
            Simulator::Destroy();
        }
    }
};

/// C4: from GPU 0, every other GPU of a 2 x 2 fabric is reachable: its server peer (scale-up),
/// its rail peer and the GPU on another server and rail (through a PXN proxy).
class TransportAddressingTestCase : public TestCase
{
  public:
    TransportAddressingTestCase()
        : TestCase("transport contract: every GPU is addressable")
    {
    }

  private:
    void DoRun() override
    {
        for (const NetworkModel& model : Models())
        {
            Ptr<RailNetwork> fabric = model.build(Spec(2, RailKind::EPS, 2));
            std::vector<Observed> observed;
            Watch(fabric, observed);
            for (uint32_t peer = 1; peer < 4; ++peer)
            {
                fabric->GetMessageTransport(0)->Send(peer, 100000);
            }
            Simulator::Run();
            for (uint32_t peer = 1; peer < 4; ++peer)
            {
                NS_TEST_EXPECT_MSG_EQ(observed[peer].got.size(),
                                      1,
                                      model.name << ": GPU " << peer << " got its message (C4)");
            }
            Simulator::Destroy();
        }
    }
};

/// C5: on an optical rail with no circuit a message waits; it arrives once a circuit is set.
class TransportWaitsForAPathTestCase : public TestCase
{
  public:
    TransportWaitsForAPathTestCase()
        : TestCase("transport contract: a message without a path waits for one")
    {
    }

  private:
    void DoRun() override
    {
        for (const NetworkModel& model : Models())
        {
            Ptr<RailNetwork> fabric = model.build(Spec(2, RailKind::OCS));
            std::vector<Observed> observed;
            Watch(fabric, observed);
            fabric->GetMessageTransport(0)->Send(1, 100000);
            const double circuitNs = 1e6;
            Simulator::Schedule(NanoSeconds(circuitNs),
                                [fabric]() { fabric->GetOcs(0)->Preset(fabric->RingCircuits(0)); });
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(observed[1].got.size(), 1, model.name << ": arrived (C5)");
            NS_TEST_EXPECT_MSG_GT(observed[1].gotNs[Key(0, 1)],
                                  circuitNs,
                                  model.name << ": only after the circuit was set");
            Simulator::Destroy();
        }
    }
};

/// C6: a message uses every NIC port to its peer, split by rate: two ports of 100 G carry a
/// large message in half the time one port takes.
class TransportUsesEveryPathTestCase : public TestCase
{
  public:
    TransportUsesEveryPathTestCase()
        : TestCase("transport contract: a message uses every path, split by rate")
    {
    }

  private:
    double TransferNs(const NetworkModel& model, uint32_t ports)
    {
        Ptr<RailNetwork> fabric = model.build(Spec(2, RailKind::EPS, 1, ports));
        std::vector<Observed> observed;
        Watch(fabric, observed);
        fabric->GetMessageTransport(0)->Send(1, 16 << 20);
        Simulator::Run();
        double ns = observed[1].gotNs[Key(0, 1)];
        Simulator::Destroy();
        return ns;
    }

    void DoRun() override
    {
        for (const NetworkModel& model : Models())
        {
            double one = TransferNs(model, 1);
            double two = TransferNs(model, 2);
            NS_TEST_EXPECT_MSG_EQ_TOL(two, one / 2, 0.02 * one / 2, model.name << ": (C6)");
        }
    }
};

/// The MessageTransport contract suite.
class MessageTransportTestSuite : public TestSuite
{
  public:
    MessageTransportTestSuite()
        : TestSuite("photonic-rails-message-transport", UNIT)
    {
        AddTestCase(new TransportIdsAndCallbacksTestCase, TestCase::QUICK);
        AddTestCase(new TransportAddressingTestCase, TestCase::QUICK);
        AddTestCase(new TransportWaitsForAPathTestCase, TestCase::QUICK);
        AddTestCase(new TransportUsesEveryPathTestCase, TestCase::QUICK);
    }
};

static MessageTransportTestSuite
    g_messageTransportTestSuite; //!< Static variable for test initialization
