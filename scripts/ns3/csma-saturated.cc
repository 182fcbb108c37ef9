// Saturated stations on one ns-3 CSMA channel: the counterpart of
// `mac-sim run -n N -f BYTES -d Ts`, for comparing frames simulated per wall
// second with ns-3's CSMA model (ns-3.37, Debian's libns3-dev).
//
// Usage: csma-saturated --stations=N --frame=BYTES --duration=SECONDS --seed=S
// Prints one line: frames=<delivered frames> sim_s=<simulated seconds>
//
// The two programs simulate different models, and only the speed is compared:
// ns-3's CSMA channel is one shared state seen at once by every station (a
// station that finds it idle seizes it, so two transmissions never overlap and
// there is no collision, no detection and no jam), and a station that finds it
// busy backs off by ns-3's own rule (1 us slots, a window that doubles up to
// 1023 slots, a frame dropped after 1000 busy senses), not by IEEE 802.3's BEB
// over 51.2 us slots. Those are kept as ns-3 ships them: the figure is what
// ns-3's model costs as it stands.
//
// What is matched to mac-sim's defaults (mac-sim/csma-cd/src/config.rs):
// - bit rate 10 Mb/s;
// - the channel's one Delay is the end-to-end propagation of mac-sim's bus,
//   2500 m at 2e8 m/s = 12.5 us (ns-3 gives every pair of stations the same
//   delay, where mac-sim spreads the stations evenly along the cable);
// - the interframe gap, 96 bit times, which CsmaNetDevice sets by itself from
//   the channel's data rate when it is attached;
// - the frame size on the wire (see kHeaderAndFcs below). mac-sim has a
//   64-bit preamble and SFD before each frame; ns-3's CSMA model has none.
//
// Saturation: each station starts with two frames, one sent and one queued,
// and queues a fresh one whenever a frame leaves the device: at the end of its
// transmission (PhyTxEnd) or when dropped after too many busy senses
// (PhyTxDrop). Both trace sources fire while the device is not READY (GAP and
// BACKOFF), so Send() then only enqueues and never starts a transmission from
// inside the device's own call. The queue thus always holds one frame when the
// device looks for the next, the way an always-ready mac-sim station does,
// without an application sending more than the channel carries only to have
// the device queue drop it.
//
// Destinations: station i sends to station (i + 1) mod N (unicast), so exactly
// one device accepts each frame.
//
// Counted: MacRx on every device. It fires when a device accepts a frame
// addressed to it, after the propagation delay; with unicast, once per frame
// the channel carried, at its one addressee (the other devices classify it as
// PACKET_OTHERHOST and fire only the promiscuous traces). Broadcast would fire
// it at all N - 1 receivers, and PhyTxEnd counts at the sender as the frame
// leaves rather than as it arrives.
//
// No logging, pcap or IP stack: just nodes, devices and one channel.

#include "ns3/core-module.h"
#include "ns3/csma-channel.h"
#include "ns3/csma-helper.h"
#include "ns3/csma-net-device.h"
#include "ns3/network-module.h"

#include <cstdint>
#include <iostream>

using namespace ns3;

namespace
{

// mac-sim's frame size runs from destination address to FCS (64..=1518 bytes).
// ns-3's CsmaNetDevice in its default DIX mode puts the same around the payload
// it is handed: a 14-byte Ethernet header (destination, source, type) and a
// 4-byte FCS trailer, and pads a payload under 46 bytes to 46. So a payload of
// BYTES - 18 puts a frame of exactly BYTES on the wire: 46 for 64 (no padding
// needed), 1500 for 1518 (the default Mtu).
constexpr uint32_t kHeaderAndFcs = 18;

// An EtherType from the range IEEE reserves for local experiments; DIX mode
// needs a value above 1500 and nothing on the nodes listens for it.
constexpr uint16_t kProtocol = 0x88B5;

uint64_t g_delivered = 0;

void
CountDelivered(Ptr<const Packet>)
{
    ++g_delivered;
}

// One saturated station: its device and where it sends.
struct Station
{
    Ptr<CsmaNetDevice> device;
    Address destination;
    uint32_t payload;

    void Refill(Ptr<const Packet>)
    {
        SendOne();
    }

    void SendOne()
    {
        device->Send(Create<Packet>(payload), destination, kProtocol);
    }

    void Start()
    {
        SendOne();
        SendOne();
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t stations = 32;
    uint32_t frame = 1518;
    double duration = 10.0;
    uint32_t seed = 1;

    CommandLine cmd;
    cmd.AddValue("stations", "Number of stations on the channel", stations);
    cmd.AddValue("frame", "Frame size on the wire, bytes (64..1518, address to FCS)", frame);
    cmd.AddValue("duration", "Simulated time, seconds", duration);
    cmd.AddValue("seed", "Seed of ns-3's random number generator", seed);
    cmd.Parse(argc, argv);

    if (stations < 2 || frame < 64 || frame > 1518 || !(duration > 0.0) || seed == 0)
    {
        std::cerr << "error: need --stations >= 2, --frame in 64..1518, --duration > 0, "
                     "--seed >= 1\n";
        return 2;
    }

    RngSeedManager::SetSeed(seed);

    NodeContainer nodes;
    nodes.Create(stations);

    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", DataRateValue(DataRate("10Mbps")));
    // 2500 m / 2e8 m/s = 12.5 us, mac-sim's end-to-end delay.
    csma.SetChannelAttribute("Delay", TimeValue(NanoSeconds(12500)));
    NetDeviceContainer devices = csma.Install(nodes);

    std::vector<Station> all(stations);
    for (uint32_t i = 0; i < stations; ++i)
    {
        Station& s = all[i];
        s.device = DynamicCast<CsmaNetDevice>(devices.Get(i));
        s.destination = devices.Get((i + 1) % stations)->GetAddress();
        s.payload = frame - kHeaderAndFcs;
        s.device->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&Station::Refill, &s));
        s.device->TraceConnectWithoutContext("PhyTxDrop", MakeCallback(&Station::Refill, &s));
        s.device->TraceConnectWithoutContext("MacRx", MakeCallback(&CountDelivered));
        Simulator::ScheduleWithContext(nodes.Get(i)->GetId(), Seconds(0), &Station::Start, &s);
    }

    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    std::cout << "frames=" << g_delivered << " sim_s=" << duration << "\n";
    Simulator::Destroy();
    return 0;
}
