package io.jroce.stack.fabric;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.transport.IpAddresses;
import java.io.IOException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The fabric's wire capture ({@link SimulatedFabric.Builder#pcap}): each datagram at the moment
 * the fabric delivers it, on the receivers' side of every fault. So a dropped packet is absent, a
 * corrupted one is there with the bit flipped (its ICRC fails, as the receiver finds), a held-back
 * one comes after the packets that overtook it, and a duplicated one comes twice. The frames carry
 * the IPv4 header the fabric's ICRC is computed over (identification 0, DF) or IPv6, so an intact
 * packet's ICRC verifies in Wireshark and {@code jroce explain}.
 */
final class FabricCapture {
    private final PcapWriter pcap;

    FabricCapture(PcapWriter pcap) {
        this.pcap = pcap;
    }

    /** Writes {@code d} as it is now (the writer stamps it with the fabric's clock); a datagram is BTH to ICRC, as its endpoint built it. */
    void delivered(FabricDatagram d) {
        UnsafeBuffer p = d.packet;
        int length = p.capacity() - IcrcCalculator.ICRC_LENGTH;
        int icrc = IcrcCalculator.readIcrc(p, length);
        if (FabricEndpoint.ipv4(d.src, d.dst)) { // the IP header its ICRC was computed over
            pcap.ipv4(IpAddresses.ipv4(d.src), IpAddresses.ipv4(d.dst), 0, IcrcCalculator.IPV4_FLAGS_DF, d.srcPort,
                d.dstPort, p, 0, length, icrc);
        } else {
            pcap.ipv6(d.src, d.dst, d.srcPort, d.dstPort, p, 0, length, icrc);
        }
    }

    void flush() {
        pcap.flush();
    }

    void close() throws IOException {
        pcap.close();
    }
}
