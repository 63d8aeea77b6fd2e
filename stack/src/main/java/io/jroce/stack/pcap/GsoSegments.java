package io.jroce.stack.pcap;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a captured UDP super-datagram back into the RoCEv2 datagrams it carries. A sender using UDP
 * segmentation offload (the UDP_SEGMENT socket option, as jroce's UDP transports send runs of
 * same-size packets) hands the kernel one datagram of many segments; a capture taken before the
 * cut (tcpdump on loopback, or on the sending host) holds it whole: one IP and UDP header, then
 * the packets back to back, each with its own BTH and ICRC, all of one size but the last.
 *
 * <p>Nothing in the headers gives the segment size, so it is found: the next BTH must follow at
 * some multiple of 4 bytes with the same destination QP and a PSN at most {@link #PSN_WINDOW} ahead
 * (the next one for requests; coalesced ACKs skip), and the first segment's ICRC must verify with
 * that size (the k-th segment of a GSO message gets the IPv4 ID + k, as
 * {@code inet_gso_segment} numbers them). A datagram whose ICRC verifies whole is one packet.
 */
public final class GsoSegments {
    private static final int BTH = 12;
    private static final int ICRC = 4;
    /** How far ahead the second packet's PSN may be: ACKs of consecutive messages skip their PSNs. */
    static final int PSN_WINDOW = 1 << 16;

    private GsoSegments() {
    }

    /**
     * The packets of {@code whole}: itself when its ICRC verifies or no segment size fits, else
     * one frame per segment (with the frame's index, and the IPv4 ID the segment carried).
     *
     * @param whole a captured frame, perhaps a GSO run of several packets
     * @param check what tells whether a packet's ICRC verifies
     * @return the packets, in order
     */
    public static List<RoceFrame> split(RoceFrame whole, IcrcCheck check) {
        if (check.verifies(whole)) {
            return List.of(whole);
        }
        byte[] udp = payload(whole);
        ByteBuffer b = ByteBuffer.wrap(udp);
        int qp = b.getInt(4) & 0xFFFFFF;
        int psn = b.getInt(8) & 0xFFFFFF;
        for (int size = BTH + ICRC; size + BTH <= udp.length; size += 4) {
            int ahead = ((b.getInt(size + 8) & 0xFFFFFF) - psn) & 0xFFFFFF;
            if ((b.get(size + 1) & 0x0F) != 0 || (b.getInt(size + 4) & 0xFFFFFF) != qp || ahead > PSN_WINDOW) {
                continue;
            }
            RoceFrame first = segment(whole, udp, 0, size, 0);
            if (check.verifies(first)) {
                return cut(whole, udp, size);
            }
        }
        return List.of(whole);
    }

    private static List<RoceFrame> cut(RoceFrame whole, byte[] udp, int size) {
        List<RoceFrame> frames = new ArrayList<>();
        for (int at = 0, k = 0; at < udp.length; at += size, k++) {
            int length = Math.min(size, udp.length - at);
            if (length < BTH + ICRC) {
                return List.of(whole); // a tail too short for a packet: not a GSO message after all
            }
            frames.add(segment(whole, udp, at, length, k));
        }
        return frames;
    }

    private static RoceFrame segment(RoceFrame whole, byte[] udp, int at, int length, int k) {
        byte[] roce = new byte[length - ICRC];
        System.arraycopy(udp, at, roce, 0, roce.length);
        int icrc = Integer.reverseBytes(ByteBuffer.wrap(udp, at + roce.length, ICRC).getInt());
        int ipId = whole.ipv6() ? 0 : (whole.ipId() + k) & 0xFFFF;
        return new RoceFrame(whole.index(), whole.ipv6(), whole.src16(), whole.dst16(), ipId, whole.flagsFragment(),
            whole.srcPort(), whole.dstPort(), roce, icrc);
    }

    /** The UDP payload: the packet and the four bytes after it, which {@link RoceFrame} read as the ICRC. */
    private static byte[] payload(RoceFrame f) {
        byte[] udp = new byte[f.roce().length + ICRC];
        System.arraycopy(f.roce(), 0, udp, 0, f.roce().length);
        ByteBuffer.wrap(udp, f.roce().length, ICRC).putInt(Integer.reverseBytes(f.icrc()));
        return udp;
    }
}
