package io.jroce.stack.pcap;

import io.jroce.stack.icrc.IcrcCalculator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Verifies the ICRC of captured frames under their own IP and UDP headers (IBTA Vol. 1 Annex A17:
 * the IPv4 ID and flags of the capture count, as rxe computed them). A capture whose every ICRC
 * verifies was sent by, or could be taken by, a real RoCEv2 NIC. Not thread-safe.
 */
public final class IcrcCheck {
    private final IcrcCalculator calculator = new IcrcCalculator();

    /**
     * The ICRC that {@code frame}'s headers and packet call for.
     *
     * @param frame a RoCEv2 frame of a capture
     * @return the ICRC
     */
    public int expected(RoceFrame frame) {
        UnsafeBuffer roce = new UnsafeBuffer(frame.roce());
        if (frame.ipv6()) {
            return calculator.computeIpv6(frame.src16(), frame.dst16(), frame.srcPort(), frame.dstPort(),
                roce, 0, frame.roce().length);
        }
        return calculator.computeIpv4(frame.srcIpv4(), frame.dstIpv4(), frame.ipId(), frame.flagsFragment(),
            frame.srcPort(), frame.dstPort(), roce, 0, frame.roce().length);
    }

    /**
     * True when {@code frame} carries the ICRC its headers and packet call for.
     *
     * @param frame a RoCEv2 frame of a capture
     * @return whether its ICRC verifies
     */
    public boolean verifies(RoceFrame frame) {
        return expected(frame) == frame.icrc();
    }

    /**
     * Every frame of the pcap {@code file}, each a RoCEv2 packet whose ICRC verifies; throws an
     * {@link IOException} naming the file and frame of the first that is not.
     *
     * @param file the capture
     * @return the frames, in capture order
     * @throws IOException the file cannot be read, or a frame is not RoCEv2 or fails its ICRC
     */
    public static List<RoceFrame> readVerified(Path file) throws IOException {
        List<RoceFrame> frames = RoceFrame.read(file);
        IcrcCheck check = new IcrcCheck();
        for (RoceFrame f : frames) {
            int expected = check.expected(f);
            if (expected != f.icrc()) {
                throw new IOException(String.format("%s frame %d: ICRC %08x on the wire, %08x computed: it does not verify",
                    file, f.index(), f.icrc(), expected));
            }
        }
        return frames;
    }
}
