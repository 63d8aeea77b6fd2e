package io.jroce.rnic.core;

/**
 * The heap a queue takes, estimated from its capacities for the {@link MemoryBudget}. The
 * figures are the objects' layouts on a 64-bit JVM with compressed references (12-byte object
 * headers, 16-byte array headers, 8-byte alignment), rounded up:
 * <ul>
 * <li>a send WQE: {@link SendWqe} 144 bytes, its {@link SgList} 40 plus four arrays of 16 + 20
 *     bytes per SGE, its inline buffer 48 plus the inline bytes, and its ring slot: 320 bytes, plus
 *     20 per SGE, plus max_inline_data;</li>
 * <li>a receive WQE: {@link RecvWqe} 24 bytes, its SgList as above, its slot: 152 bytes plus 20 per SGE;</li>
 * <li>a completion slot: a WorkCompletion of 64 bytes and its slot, 68 bytes;</li>
 * <li>what a QP holds beside its rings (its transport, requester, responder and their tables):
 *     4 KiB, a CQ or an SRQ beside its ring: 256 bytes.</li>
 * </ul>
 * They agree with what was measured on the heap: a default QP (128 + 128 WRs of one SGE) about
 * 67 KB, a QP at max_qp_wr, max_sge and max_inline_data about 31 MB, a CQ of max_cqe entries about
 * 2 MB. An estimate may be off by some percent; the budget is there to refuse early, not to count
 * bytes.
 */
final class QueueFootprint {
    static final int SEND_WQE = 320;
    static final int RECV_WQE = 152;
    static final int PER_SGE = 20;
    static final int COMPLETION = 68;
    static final int QP_FIXED = 4096;
    static final int QUEUE_FIXED = 256;

    private QueueFootprint() {
    }

    /** A QP's send queue of {@code sendWr} WQEs and its own receive queue of {@code recvWr} (1 with an SRQ). */
    static long qp(int sendWr, int sendSge, int maxInline, int recvWr, int recvSge) {
        return QP_FIXED + (long) sendWr * (SEND_WQE + (long) PER_SGE * sendSge + maxInline)
            + (long) recvWr * (RECV_WQE + (long) PER_SGE * recvSge);
    }

    static long srq(int maxWr, int sge) {
        return QUEUE_FIXED + (long) maxWr * (RECV_WQE + (long) PER_SGE * sge);
    }

    static long cq(int entries) {
        return QUEUE_FIXED + (long) entries * COMPLETION;
    }
}
