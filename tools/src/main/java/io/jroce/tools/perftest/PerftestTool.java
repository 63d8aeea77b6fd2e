package io.jroce.tools.perftest;

/**
 * The eight perftest programs jroce has twins of: which verb each measures and whether it reports
 * bandwidth or latency. Everything they share is one piece of code that asks the tool.
 */
enum PerftestTool {
    WRITE_BW(Verb.WRITE, true),
    WRITE_LAT(Verb.WRITE, false),
    READ_BW(Verb.READ, true),
    READ_LAT(Verb.READ, false),
    SEND_BW(Verb.SEND, true),
    SEND_LAT(Verb.SEND, false),
    ATOMIC_BW(Verb.ATOMIC, true),
    ATOMIC_LAT(Verb.ATOMIC, false);

    /** perftest's VerbType, in its order (testsStr: "Send", "RDMA_Write", "RDMA_Read", "Atomic"). */
    enum Verb {
        SEND("Send"), WRITE("RDMA_Write"), READ("RDMA_Read"), ATOMIC("Atomic");

        private final String banner;

        Verb(String banner) {
            this.banner = banner;
        }

        /** The word of the banner line ("RDMA_Write BW Test"). */
        String banner() {
            return banner;
        }

        /** READ and atomics need responder resources: they exchange max_qp_rd_atom as out_reads. */
        boolean usesOutstandingReads() {
            return this == READ || this == ATOMIC;
        }
    }

    private final Verb verb;
    private final boolean bandwidth;

    PerftestTool(Verb verb, boolean bandwidth) {
        this.verb = verb;
        this.bandwidth = bandwidth;
    }

    Verb verb() {
        return verb;
    }

    /** BW test (tst == BW); else a latency test (tst == LAT). */
    boolean bandwidth() {
        return bandwidth;
    }

    /** {@code jroce NAME}: write_bw, send_lat, ... */
    String command() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The perftest program it is the twin of. */
    String realTool() {
        return "ib_" + command();
    }
}
