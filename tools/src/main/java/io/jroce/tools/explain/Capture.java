package io.jroce.tools.explain;

import java.util.List;
import java.util.Map;

/**
 * A capture read by {@link CaptureReader}: its RoCEv2 packets in capture order and what was
 * skipped, counted by reason.
 *
 * @param name    the file as the user named it
 * @param frames  records in the file
 * @param packets the RoCEv2 packets (a GSO super-datagram gives several)
 * @param skipped frames that are not RoCEv2, by reason, in the order first met
 * @param startNs time of the first record: every relative time counts from it
 */
record Capture(String name, int frames, List<Packet> packets, Map<String, Integer> skipped, long startNs) {
    int skippedTotal() {
        return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }
}
