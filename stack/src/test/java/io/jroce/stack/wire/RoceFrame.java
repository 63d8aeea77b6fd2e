package io.jroce.stack.wire;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Finds the RoCEv2 part of a captured Ethernet frame: enough IPv4/IPv6/UDP parsing for the
 * captures, not a general decoder.
 */
record RoceFrame(UnsafeBuffer frame, int udpOffset, int udpLength) {
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int IPPROTO_UDP = 17;

    /** The frame's RoCEv2 datagram, or null if it is not UDP to port 4791. */
    static RoceFrame of(byte[] data) {
        UnsafeBuffer b = new UnsafeBuffer(data);
        int at = 12;
        int etherType = u16(b, at);
        if (etherType == ETHERTYPE_VLAN) {
            at += 4;
            etherType = u16(b, at);
        }
        int ip = at + 2;
        int udp;
        if (etherType == ETHERTYPE_IPV4) {
            if (u8(b, ip + 9) != IPPROTO_UDP) {
                return null;
            }
            udp = ip + (u8(b, ip) & 0x0F) * 4;
        } else if (etherType == ETHERTYPE_IPV6) {
            if (u8(b, ip + 6) != IPPROTO_UDP) {
                return null;
            }
            udp = ip + 40;
        } else {
            return null;
        }
        if (u16(b, udp + 2) != RoceV2.UDP_PORT) {
            return null;
        }
        return new RoceFrame(b, udp, u16(b, udp + 4));
    }

    /** Where the BTH starts. */
    int bthOffset() {
        return udpOffset + RoceV2.UDP_HEADER_LENGTH;
    }

    /** BTH to the end of the pad: what the transport hands the RNIC once it has stripped the ICRC. */
    int packetLength() {
        return udpLength - RoceV2.UDP_HEADER_LENGTH - RoceV2.ICRC_LENGTH;
    }

    /** The 4 ICRC bytes read as a big-endian number, as tshark shows them. */
    int icrcAsShown() {
        return frame.getInt(bthOffset() + packetLength(), ByteOrder.BIG_ENDIAN);
    }

    private static int u8(UnsafeBuffer b, int i) {
        return b.getByte(i) & 0xFF;
    }

    private static int u16(UnsafeBuffer b, int i) {
        return b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }
}
