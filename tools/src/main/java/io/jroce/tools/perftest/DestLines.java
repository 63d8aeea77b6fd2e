package io.jroce.tools.perftest;

import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PerftestDest;

/** perftest's ctx_print_pingpong_data: how a run prints a QP's address, its own and its peer's. */
final class DestLines {
    private DestLines() {
    }

    /**
     * The address line (with OUT for READ, RKey and VAddr for every RDMA verb, as perftest's
     * fall-through switch does) and the GID line, whose bytes it prints in decimal.
     */
    static String describe(PerftestDest d, String side, PerftestTool.Verb verb) {
        StringBuilder sb = new StringBuilder();
        sb.append(" ").append(side).append(" address: LID ").append(CFormat.alt(d.lid(), 4)).append(" QPN ")
            .append(CFormat.alt(d.qpn(), 6)).append(" PSN ").append(CFormat.alt(d.psn(), 6));
        // perftest switches on the verb's number (SEND 0, WRITE 1, READ 2, ATOMIC 3): READ falls through.
        if (verb == PerftestTool.Verb.READ) {
            sb.append(" OUT ").append(CFormat.alt(d.outReads(), 4));
        }
        if (verb == PerftestTool.Verb.READ || verb == PerftestTool.Verb.WRITE) {
            sb.append(" RKey ").append(CFormat.alt(d.rkey() & 0xFFFF_FFFFL, 8)).append(" VAddr ")
                .append(CFormat.alt(d.vaddr(), 16));
        }
        sb.append('\n').append(" GID: ");
        for (int i = 0; i < Gid.LENGTH; i++) {
            if (i > 0) {
                sb.append(':');
            }
            int b = d.gid().byteAt(i) & 0xFF;
            sb.append(b < 10 ? "0" : "").append(b); // %02d, by hand: a run prints this for each of its QPs
        }
        return sb.toString();
    }
}
