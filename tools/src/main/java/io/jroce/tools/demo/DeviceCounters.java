package io.jroce.tools.demo;

import io.jroce.verbs.RdmaDevice;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counters of one RNIC the demo shows: packets and bytes sent and received, packets sent
 * again, and the drop counters ({@code drop_*}) that are not zero.
 */
record DeviceCounters(long sentPkts, long rcvdPkts, long sentBytes, long rcvdBytes, long retransmittedPkts,
                      Map<String, Long> drops) {

    static DeviceCounters read(RdmaDevice device) {
        Map<String, Long> all = device.counters();
        Map<String, Long> drops = new TreeMap<>();
        all.forEach((name, value) -> {
            if (name.startsWith("drop_") && value != 0) {
                drops.put(name, value);
            }
        });
        return new DeviceCounters(all.getOrDefault("sent_pkts", 0L), all.getOrDefault("rcvd_pkts", 0L),
            all.getOrDefault("sent_bytes", 0L), all.getOrDefault("rcvd_bytes", 0L),
            all.getOrDefault("retransmitted_pkts", 0L), drops);
    }

    /** What changed since {@code before}. */
    DeviceCounters minus(DeviceCounters before) {
        Map<String, Long> drops = new TreeMap<>();
        this.drops.forEach((name, value) -> {
            long delta = value - before.drops.getOrDefault(name, 0L);
            if (delta != 0) {
                drops.put(name, delta);
            }
        });
        return new DeviceCounters(sentPkts - before.sentPkts, rcvdPkts - before.rcvdPkts,
            sentBytes - before.sentBytes, rcvdBytes - before.rcvdBytes, retransmittedPkts - before.retransmittedPkts,
            drops);
    }

    /** "sent/received" packets, as the table shows them. */
    String packets() {
        return sentPkts + "/" + rcvdPkts;
    }
}
