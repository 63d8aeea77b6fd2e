package io.jroce.tools.rping;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.cm.RdmaCmId;

/**
 * One connection's verbs resources as rping makes them ({@code rping_setup_qp},
 * {@code rping_setup_buffers}): a PD, a completion channel, a CQ of 32, an RC QP of 16 sends and 2
 * receives through {@code rdma_create_qp}, and four buffers: the 16-byte receive and send messages,
 * the RDMA buffer (the server's READ target and WRITE source, the client's WRITE sink) and the
 * client's start buffer (its READ source).
 */
final class Connection {
    /** RPING_SQ_DEPTH. */
    static final int SQ_DEPTH = 16;
    private static final int RQ_DEPTH = 2;
    private static final int RDMA_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;

    private final ControlBlock cb;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue cq;
    final QueuePair qp;
    MemoryRegion recvMr;
    MemoryRegion sendMr;
    MemoryRegion rdmaMr;
    MemoryRegion startMr;
    CqThread cqThread;

    private Connection(ControlBlock cb, ProtectionDomain pd, CompletionChannel channel, CompletionQueue cq,
                       QueuePair qp) {
        this.cb = cb;
        this.pd = pd;
        this.channel = channel;
        this.cq = cq;
        this.qp = qp;
    }

    /** rping_setup_qp on {@code id}'s device; what fails is closed again and thrown. */
    static Connection setupQp(ControlBlock cb, RdmaCmId id) {
        RpingLog log = cb.log;
        ProtectionDomain pd = id.device().allocPd();
        log.debug("created pd " + RpingLog.pointer(pd));
        CompletionChannel channel = null;
        CompletionQueue cq = null;
        try {
            channel = id.device().createCompletionChannel();
            log.debug("created channel " + RpingLog.pointer(channel));
            cq = id.device().createCq(SQ_DEPTH * 2, channel);
            log.debug("created cq " + RpingLog.pointer(cq));
            cq.requestNotification(false);
            QueuePair qp = id.createQp(pd, new QpInitAttributes().cq(cq).maxSendWr(SQ_DEPTH).maxRecvWr(RQ_DEPTH)
                .maxSendSge(1).maxRecvSge(1));
            log.debug("created qp " + RpingLog.pointer(qp));
            return new Connection(cb, pd, channel, cq, qp);
        } catch (RuntimeException e) {
            closeAll(cq, channel, pd);
            throw e;
        }
    }

    /** rping_setup_buffers. */
    void setupBuffers() {
        cb.log.debug("rping_setup_buffers called on cb " + RpingLog.pointer(cb));
        int size = cb.options.size();
        recvMr = pd.allocateMemory(RdmaInfo.LENGTH, AccessFlags.LOCAL_WRITE);
        sendMr = pd.allocateMemory(RdmaInfo.LENGTH, 0);
        rdmaMr = pd.allocateMemory(size, RDMA_ACCESS);
        if (!cb.server) {
            startMr = pd.allocateMemory(size, RDMA_ACCESS);
        }
        cb.log.debug("allocated & registered buffers...");
    }

    /** rping_free_buffers. */
    void freeBuffers() {
        cb.log.debug("rping_free_buffers called on cb " + RpingLog.pointer(cb));
        closeAll(recvMr, sendMr, rdmaMr, startMr);
    }

    /** Closes whatever is still open, without rping's debug line: the run's last sweep before the device closes. */
    void closeRemaining() {
        closeAll(recvMr, sendMr, rdmaMr, startMr, qp, cq, channel, pd);
    }

    /** rping_free_qp. */
    void freeQp() {
        closeAll(qp, cq, channel, pd);
    }

    /** The receive of the next message (rq_wr). */
    void postRecv() {
        qp.postRecv(new ReceiveWorkRequest().sgList(ScatterGatherEntry.of(recvMr, 0, RdmaInfo.LENGTH)));
    }

    /** rping_format_send: the send buffer says where {@code mr} is, with the -d line. */
    void formatSend(MemoryRegion mr) {
        RdmaInfo info = new RdmaInfo(mr.address(), mr.rkey(), cb.options.size());
        info.writeTo(sendMr.buffer());
        cb.log.debug(String.format("RDMA addr %x rkey %x len %d", info.buf(), info.rkey(), info.size()));
    }

    /** The SEND of the send buffer (sq_wr), signaled. */
    void postSend() {
        qp.postSend(new SendWorkRequest().opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(sendMr, 0, RdmaInfo.LENGTH)));
    }

    /** rdma_sq_wr: an RDMA READ or WRITE between the RDMA buffer's first {@code length} bytes and the peer's. */
    void postRdma(WrOpcode opcode, int length) {
        qp.postSend(new SendWorkRequest().opcode(opcode).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(cb.remoteAddr).rkey(cb.remoteRkey)
            .sgList(new ScatterGatherEntry(rdmaMr.address(), length, rdmaMr.lkey())));
    }

    /**
     * Closes each non-null resource in order, as rping's frees do, ignoring their status: it runs
     * on the way out, where one that will not close must not keep the others open.
     */
    private static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                // rping ignores ibv_dereg_mr's and ibv_destroy_*'s status likewise
            }
        }
    }
}
