package io.jroce.tools.explain;

/** What one side of a connection sent, for the per-QP summary. */
final class SideStats {
    int packets;
    long bytes;
    int messages;
    int retransmissions;
    int duplicates;
    int gaps;
    int acks;
    int naks;
    int rnrNaks;
    int badIcrc;
    int sequenceErrors;
    long firstNs = Long.MIN_VALUE;
    long lastNs;

    void sent(Packet p) {
        packets++;
        bytes += p.payload();
        if (firstNs == Long.MIN_VALUE) {
            firstNs = p.timeNs();
        }
        lastNs = p.timeNs();
    }
}
