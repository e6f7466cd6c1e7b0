/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The MessageTransport contract (C1-C7 in message-transport.h), checked through the abstract
 * interface on every network model: the packet model (RailTransport, built by
 * RailFabricHelper) and the flow model (FlowTransport, built by FlowFabricHelper); and the
 * seam itself (the base's non-virtual Send around DoSend) on a fake model.
 */

#include "job-test-bed.h"

#include "ns3/core-module.h"
#include "ns3/photonic-rails-module.h"
#include "ns3/test.h"

#include <functional>
#include <map>
#include <tuple>
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

/**
 * The smallest network model: DoSend hands the message to the peer's fake at once, which
 * tells its base the bytes arrived, and then tells the sender's base it was sent. It keeps no
 * ids, counters or traces of its own, so whatever the test sees of them is the base's.
 */
class FakeMessageTransport : public MessageTransport
{
  public:
    /// A DoSend call: (id, peer, bytes).
    using DoSendCall = std::tuple<uint64_t, uint32_t, uint64_t>;

    /**
     * \brief Get the TypeId
     * \return The TypeId for this class
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::tests::FakeMessageTransport")
                                .SetParent<MessageTransport>()
                                .SetGroupName("PhotonicRails");
        return tid;
    }

    uint32_t GetGpu() const override
    {
        return gpu;
    }

    /// \return an id for a message of the model's own (AllocateMessageId)
    uint64_t OwnMessageId()
    {
        return AllocateMessageId();
    }

    uint32_t gpu{0};                     //!< This fake GPU
    FakeMessageTransport* peer{nullptr}; //!< Where every message goes (not owned)
    std::vector<DoSendCall> calls;       //!< What DoSend was given

  protected:
    void DoSend(uint64_t id, uint32_t to, uint64_t bytes) override
    {
        calls.emplace_back(id, to, bytes);
        // Two arrivals, so that the payload counter adds the pieces.
        peer->NotifyPayloadDelivered(bytes / 2);
        peer->NotifyPayloadDelivered(bytes - bytes / 2);
        peer->NotifyDelivered(gpu, id, bytes);
        NotifySent(id);
    }
};

/**
 * The seam: MessageTransport::Send assigns ids (1, 2, 3, then 5 after the model took 4 for a
 * message of its own) and gives them to DoSend in order; a message is pending from Send until
 * NotifySent (so a model may complete it inside DoSend); MessageSent, the sent callback,
 * MessageReceived and the receive callback fire once per message with its peer, id and bytes;
 * the counters count what the model notified. Expected values by hand: sizes 10, 21 and 1000
 * and 1 sum to 1032 bytes.
 */
class TransportSeamTestCase : public TestCase
{
  public:
    TransportSeamTestCase()
        : TestCase("transport seam: the base owns ids, pending messages, counters and traces")
    {
    }

  private:
    /// A trace or callback record: (gpu, id, bytes).
    using Record = std::tuple<uint32_t, uint64_t, uint64_t>;

    void DoRun() override
    {
        Ptr<FakeMessageTransport> a = CreateObject<FakeMessageTransport>();
        Ptr<FakeMessageTransport> b = CreateObject<FakeMessageTransport>();
        a->gpu = 0;
        b->gpu = 1;
        a->peer = PeekPointer(b);
        std::vector<Record> sentTrace;
        std::vector<Record> receivedTrace;
        std::vector<Record> received;
        std::vector<uint64_t> sent;
        std::vector<uint64_t> pendingAtSent;
        a->TraceConnectWithoutContext("MessageSent",
                                      Callback<void, uint32_t, uint64_t, uint64_t>(
                                          [&sentTrace](uint32_t peer, uint64_t id, uint64_t bytes) {
                                              sentTrace.emplace_back(peer, id, bytes);
                                          }));
        b->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint64_t, uint64_t>(
                [&receivedTrace](uint32_t source, uint64_t id, uint64_t bytes) {
                    receivedTrace.emplace_back(source, id, bytes);
                }));
        b->SetReceiveCallback(MessageTransport::ReceiveCallback(
            [&received](uint32_t source, uint64_t id, uint64_t bytes) {
                received.emplace_back(source, id, bytes);
            }));
        MessageTransport::SentCallback onSent([&sent, &pendingAtSent, a](uint64_t id) {
            sent.push_back(id);
            pendingAtSent.push_back(a->GetPendingMessageCount());
        });

        Ptr<MessageTransport> sender = a; // through the interface only
        NS_TEST_EXPECT_MSG_EQ(sender->Send(1, 10, onSent), 1, "the first id is 1");
        NS_TEST_EXPECT_MSG_EQ(sender->Send(1, 21, onSent), 2, "then 2");
        NS_TEST_EXPECT_MSG_EQ(sender->Send(1, 1000), 3, "then 3 (no callback is fine)");
        NS_TEST_EXPECT_MSG_EQ(a->OwnMessageId(), 4, "the model's own message takes the next id");
        NS_TEST_EXPECT_MSG_EQ(sender->Send(1, 1, onSent), 5, "and Send goes on after it");

        std::vector<FakeMessageTransport::DoSendCall> calls = {{1, 1, 10},
                                                               {2, 1, 21},
                                                               {3, 1, 1000},
                                                               {5, 1, 1}};
        NS_TEST_EXPECT_MSG_EQ((a->calls == calls), true, "DoSend got each id, peer and size");
        std::vector<Record> sentExpected = {{1, 1, 10}, {1, 2, 21}, {1, 3, 1000}, {1, 5, 1}};
        std::vector<Record> receivedExpected = {{0, 1, 10}, {0, 2, 21}, {0, 3, 1000}, {0, 5, 1}};
        NS_TEST_EXPECT_MSG_EQ((sentTrace == sentExpected), true, "MessageSent once per message");
        NS_TEST_EXPECT_MSG_EQ((receivedTrace == receivedExpected),
                              true,
                              "MessageReceived once per message");
        NS_TEST_EXPECT_MSG_EQ((received == receivedExpected),
                              true,
                              "the receive callback once per message");
        NS_TEST_EXPECT_MSG_EQ((sent == std::vector<uint64_t>{1, 2, 5}),
                              true,
                              "the sent callbacks that were given, once each");
        NS_TEST_EXPECT_MSG_EQ((pendingAtSent == std::vector<uint64_t>{0, 0, 0}),
                              true,
                              "a message is no longer pending when its callback runs");
        NS_TEST_EXPECT_MSG_EQ(a->GetPendingMessageCount(), 0, "nothing pending");

        MessageTransportCounters out = a->GetMessageCounters();
        MessageTransportCounters in = b->GetMessageCounters();
        NS_TEST_EXPECT_MSG_EQ(out.messagesSent, 4, "four messages sent (the model's own is not)");
        NS_TEST_EXPECT_MSG_EQ(out.messagesReceived, 0, "none received at the sender");
        NS_TEST_EXPECT_MSG_EQ(out.payloadBytesDelivered, 0, "no bytes delivered at the sender");
        NS_TEST_EXPECT_MSG_EQ(in.messagesSent, 0, "none sent by the receiver");
        NS_TEST_EXPECT_MSG_EQ(in.messagesReceived, 4, "four received");
        NS_TEST_EXPECT_MSG_EQ(in.payloadBytesDelivered, 10 + 21 + 1000 + 1, "1032 bytes");

        a->peer = nullptr;
        a->Dispose();
        b->Dispose();
    }
};

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
        AddTestCase(new TransportSeamTestCase, TestCase::QUICK);
        AddTestCase(new TransportIdsAndCallbacksTestCase, TestCase::QUICK);
        AddTestCase(new TransportAddressingTestCase, TestCase::QUICK);
        AddTestCase(new TransportWaitsForAPathTestCase, TestCase::QUICK);
        AddTestCase(new TransportUsesEveryPathTestCase, TestCase::QUICK);
    }
};

static MessageTransportTestSuite
    g_messageTransportTestSuite; //!< Static variable for test initialization
