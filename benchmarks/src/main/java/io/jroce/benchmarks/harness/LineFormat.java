package io.jroce.benchmarks.harness;

import io.jroce.tools.perftest.report.PerftestReportWriter;

/** The few lines a baseline prints before perftest's table, saying what it measures. */
final class LineFormat {
    private LineFormat() {
    }

    static String banner(BaselineOptions o, String name, String role) {
        StringBuilder sb = new StringBuilder();
        sb.append(PerftestReportWriter.LINE).append('\n');
        if (o.latency()) {
            int length = WireLayout.packetLength(WireLayout.Operation.SEND, o.size(), o.mtu(), 0);
            sb.append(String.format("                    UDP baseline of Send Latency (jroce %s)%n", name));
            sb.append(String.format(" Ping-pong of one %d-byte datagram (an RC SEND of %d bytes + ICRC), no RDMA protocol%n",
                length + 4, o.size()));
        } else {
            int[] lengths = WireLayout.packetLengths(o.read() ? WireLayout.Operation.RDMA_READ_RESPONSE
                : WireLayout.Operation.RDMA_WRITE, o.size(), o.mtu());
            sb.append(String.format("                    UDP baseline of %s BW (jroce %s)%n",
                o.read() ? "RDMA_Read" : "RDMA_Write", name));
            sb.append(String.format(" Flows: %d  MTU: %d  Datagrams per message: %d (first %d bytes, last %d, with ICRC)"
                    + "  Window: %d datagrams per flow, %d in all%n",
                o.flows(), o.mtu(), lengths.length, lengths[0] + 4, lengths[lengths.length - 1] + 4, o.window(),
                StreamClient.MAX_IN_FLIGHT));
        }
        sb.append(' ').append(role).append('\n');
        sb.append(PerftestReportWriter.LINE);
        return sb.toString();
    }
}
