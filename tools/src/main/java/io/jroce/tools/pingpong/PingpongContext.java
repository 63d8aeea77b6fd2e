package io.jroce.tools.pingpong;

import io.jroce.rnic.SoftRnic;
import io.jroce.tools.Closer;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.VerbsException;
import io.jroce.verbs.exchange.PingpongDest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The verbs resources of one side (struct pingpong_context): a device, a PD, one buffer registered
 * with LOCAL_WRITE that every send and receive uses, a CQ, and the tool's QPs, created and
 * connected with exactly the attributes its pp_init_ctx and pp_connect_ctx use:
 * <ul>
 * <li>rc, uc: one QP of that type (max_send_wr 1, max_recv_wr rx_depth, one SGE each), CQ of
 * rx_depth + 1 entries;</li>
 * <li>ud: the same with a UD QP whose INIT carries Q_Key 0x11111111; the buffer has 40 bytes of
 * room for the GRH before the message: receives take size + 40 bytes from its start, sends go from
 * offset 40; the message must fit the port's active MTU; an address handle for the peer;</li>
 * <li>srq: one SRQ of rx_depth receives and num_qp RC QPs on it (max_send_wr 1), CQ of
 * rx_depth + num_qp entries.</li>
 * </ul>
 */
final class PingpongContext implements AutoCloseable {
    static final int RECV_WRID = 1;
    static final int SEND_WRID = 2;
    /** sysconf(_SC_PAGESIZE) on the machines the tools run on; -c marks the first byte of each page. */
    static final int PAGE_SIZE = 4096;

    private final Closer closer = new Closer();
    private final PingpongOptions options;
    private final PingpongTool tool;
    private RdmaDevice device;
    /** The completion channel of -e, or null. */
    private CompletionChannel channel;
    /** CQ events taken from {@link #channel} (num_cq_events), acknowledged before the CQ is destroyed. */
    private int eventsTaken;
    private ProtectionDomain pd;
    private MemoryRegion mr;
    private CompletionQueue cq;
    /** srq_pingpong's SRQ, or null. */
    private SharedReceiveQueue srq;
    private final List<QueuePair> qps = new ArrayList<>();
    /** ud_pingpong's address handle of the peer, once connected. */
    private AddressHandle ah;
    private int sendFlags = SendFlags.SIGNALED;
    /** Why the last post failed, for the error message (the tools only count). */
    private VerbsException lastPostFailure;
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest().wrId(RECV_WRID);
    private final SendWorkRequest sendWr = new SendWorkRequest().wrId(SEND_WRID);

    private PingpongContext(PingpongOptions options) {
        this.options = options;
        this.tool = options.tool();
    }

    /** Opens the device and creates every resource; on failure releases those already created. */
    static PingpongContext open(PingpongOptions options) throws PingpongException {
        PingpongContext ctx = new PingpongContext(options);
        try {
            ctx.init();
            return ctx;
        } catch (PingpongException | RuntimeException e) {
            try {
                ctx.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    private void init() throws PingpongException {
        device = step("Couldn't get context for " + options.device().name(),
            () -> closer.register(options.device().withProgressDefault(SoftRnic.busyPollingDefault()).open()));
        if (tool == PingpongTool.UD) {
            checkSizeFitsPortMtu();
        }
        if (options.flags().events()) {
            channel = step("Couldn't create completion channel",
                () -> closer.register(device.createCompletionChannel()));
        }
        pd = step("Couldn't allocate PD", () -> closer.register(device.allocPd()));
        mr = registerBuffer(pd);
        int cqEntries = options.rxDepth() + (tool.sharedReceiveQueue() ? options.numQp() : 1);
        cq = step("Couldn't create CQ", () -> closer.register(channel == null
            ? device.createCq(cqEntries) : device.createCq(cqEntries, channel)));
        closer.register(this::acknowledgeEvents); // closed before the CQ
        if (tool.sharedReceiveQueue()) {
            srq = step("Couldn't create SRQ", () -> closer.register(pd.createSrq(options.rxDepth(), 1)));
        }
        for (int i = 0; i < options.numQp(); i++) {
            createQp(i);
        }
        for (int i = 0; i < options.numQp(); i++) {
            QueuePair qp = qps.get(i);
            QpAttributes attr = new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1);
            if (tool == PingpongTool.UD) {
                attr.qkey(PingpongTool.UD_QKEY);
            } else {
                attr.accessFlags(0);
            }
            step(qpLabel("Failed to modify QP", i, " to INIT"), () -> {
                qp.modify(attr);
                return null;
            });
        }
        recvWr.sgList(ScatterGatherEntry.of(mr, 0, tool.headroom() + options.size()));
        sendWr.sgList(ScatterGatherEntry.of(mr, tool.headroom(), options.size())).sendFlags(sendFlags);
    }

    /** ud_pingpong: a UD message is one packet, so it must fit the port's active MTU. */
    private void checkSizeFitsPortMtu() throws PingpongException {
        int mtu = step("Unable to query port info for port 1", () -> device.queryPort().activeMtu().bytes());
        if (options.size() > mtu) {
            throw new PingpongException("Requested size larger than port MTU (" + mtu + ")");
        }
    }

    private void createQp(int index) throws PingpongException {
        QpInitAttributes init = new QpInitAttributes().type(tool.qpType()).cq(cq).maxSendWr(1).maxSendSge(1);
        if (srq != null) {
            // srq_pingpong leaves the receive capabilities out (0 in C, which rxe ignores on a QP
            // with an SRQ). Here they are left out by not setting them, which keeps
            // QpInitAttributes' defaults: a jroce QP refuses max_recv_wr 0 even with an SRQ.
            init.srq(srq);
        } else {
            init.maxRecvWr(options.rxDepth()).maxRecvSge(1);
        }
        QueuePair qp = step(qpLabel("Couldn't create QP", index, ""), () -> closer.register(pd.createQp(init)));
        qps.add(qp);
        // The tools send inline when the QP's max_inline_data covers the message. They ask for
        // none, and a jroce QP has exactly the inline room it asked for, so they never do.
        if (init.maxInlineData() >= options.size()) {
            sendFlags |= SendFlags.INLINE;
        }
    }

    /** "Couldn't create QP" as rc/uc/ud say it, "Couldn't create QP[3]" as srq_pingpong does. */
    private String qpLabel(String before, int index, String after) {
        return before + (tool.sharedReceiveQueue() ? "[" + index + "]" : "") + after;
    }

    /** memalign + memset + ibv_reg_mr in one: jroce allocates registered memory itself. */
    private MemoryRegion registerBuffer(ProtectionDomain pd) throws PingpongException {
        int length = tool.headroom() + options.size();
        MemoryRegion region;
        try {
            region = step("Couldn't register MR",
                () -> closer.register(pd.allocateMemory(length, AccessFlags.LOCAL_WRITE)));
        } catch (OutOfMemoryError e) {
            throw new PingpongException("Couldn't allocate work buf.", e);
        }
        ByteBuffer buf = region.buffer();
        for (int i = 0; i < length; i++) {
            buf.put(i, tool.fill());
        }
        return region;
    }

    RdmaDevice device() {
        return device;
    }

    /** The QPs, for a failure's report. */
    List<QueuePair> qps() {
        return List.copyOf(qps);
    }

    /** How many QPs: -q for srq_pingpong, else 1. */
    int qpCount() {
        return qps.size();
    }

    int qpNum(int index) {
        return qps.get(index).qpNum();
    }

    /** find_qp: the index of the QP numbered {@code qpNum}, or -1. */
    int qpIndex(int qpNum) {
        for (int i = 0; i < qps.size(); i++) {
            if (qps.get(i).qpNum() == qpNum) {
                return i;
            }
        }
        return -1;
    }

    /** The GID at {@code index} (ibv_query_gid). */
    Gid gid(int index) throws PingpongException {
        if (index < 0 || index >= device.gids().size()) {
            throw new PingpongException(tool.gidFailure() + index + " (the device has "
                + device.gids().size() + " GID(s), one per --bind address)");
        }
        return device.gids().get(index);
    }

    /**
     * pp_connect_ctx towards the peer's QPs ({@code remote}, one entry per local QP at least),
     * starting each local QP's send queue at {@code mine}'s PSN. The address vector gets a GRH (hop
     * limit 1) only when the peer's GID has a non-zero interface ID, as in the tools (srq_pingpong
     * looks at the first entry's GID for every QP); RoCE needs one, so a peer that sent no GID (run
     * without -g) cannot be reached.
     * <ul>
     * <li>rc, srq (each QP): RTR with path MTU, dest QPN, rq_psn, max_dest_rd_atomic 1,
     * min_rnr_timer 12; RTS with timeout 14, retry_cnt 7, rnr_retry 7, sq_psn, max_rd_atomic 1;</li>
     * <li>uc: RTR with the address, path MTU, dest QPN and rq_psn only; RTS with sq_psn only;</li>
     * <li>ud: RTR with no attribute, RTS with sq_psn, then the address handle.</li>
     * </ul>
     */
    void connect(List<PingpongDest> remote, List<PingpongDest> mine) throws PingpongException {
        PingpongDest first = remote.get(0);
        AddressVector av = new AddressVector().serviceLevel(options.sl()).udpPort(options.device().peerUdpPort());
        if (first.hasGlobalRoute()) {
            av.destGid(first.gid()).hopLimit(1).sgidIndex(options.sgidIndex());
            checkSameFamily(first.gid(), gid(options.sgidIndex()));
        }
        for (int i = 0; i < qps.size(); i++) {
            QueuePair qp = qps.get(i);
            PingpongDest dest = remote.get(i);
            int myPsn = mine.get(i).psn();
            QpAttributes rtr = new QpAttributes().state(QpState.RTR);
            QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(myPsn);
            switch (tool.qpType()) {
                case RC -> {
                    rtr.pathMtu(options.mtu()).addressVector(av).destQpNum(dest.qpn()).rqPsn(dest.psn())
                        .maxDestRdAtomic(1).minRnrTimer(12);
                    rts.timeout(14).retryCount(7).rnrRetry(7).maxRdAtomic(1);
                }
                case UC -> rtr.pathMtu(options.mtu()).addressVector(av).destQpNum(dest.qpn()).rqPsn(dest.psn());
                case UD -> {
                    // Nothing but the state for RTR, the sq_psn for RTS: a UD QP has no peer.
                }
                default -> throw new IllegalStateException("QP type " + tool.qpType());
            }
            step(qpLabel("Failed to modify QP", i, " to RTR"), () -> {
                qp.modify(rtr);
                return null;
            });
            step(qpLabel("Failed to modify QP", i, " to RTS"), () -> {
                qp.modify(rts);
                return null;
            });
        }
        if (tool == PingpongTool.UD) {
            ah = step("Failed to create AH", () -> closer.register(pd.createAddressHandle(av)));
            sendWr.ud(ah, first.qpn(), PingpongTool.UD_QKEY);
        }
    }

    /**
     * An IPv4 GID cannot send to an IPv6 one: the packets would leave from a socket of the other
     * family. Said here, before the QP retries into the void.
     */
    private void checkSameFamily(Gid peer, Gid local) throws PingpongException {
        if (peer.isIpv4Mapped() != local.isIpv4Mapped()) {
            String step = tool == PingpongTool.UD
                ? "Failed to create AH" : qpLabel("Failed to modify QP", 0, " to RTR");
            throw new PingpongException(step + ": the peer's GID " + GidText.format(peer)
                + " and the local GID " + GidText.format(local) + " are of different IP versions (--bind an address"
                + " of the peer's family)");
        }
    }

    /**
     * pp_post_recv: posts up to {@code n} receives of the whole buffer (to the SRQ of srq_pingpong,
     * else to the QP); returns how many were posted.
     */
    int postRecv(int n) {
        for (int i = 0; i < n; i++) {
            try {
                if (srq != null) {
                    srq.postRecv(recvWr);
                } else {
                    qps.get(0).postRecv(recvWr);
                }
            } catch (VerbsException e) {
                lastPostFailure = e;
                return i;
            }
        }
        return n;
    }

    /**
     * pp_post_send: one signaled SEND of the message on QP {@code qpIndex} (for ud_pingpong through
     * the address handle to the peer's QPN with Q_Key 0x11111111); false when the QP refuses it.
     */
    boolean postSend(int qpIndex) {
        try {
            qps.get(qpIndex).postSend(sendWr);
            return true;
        } catch (VerbsException e) {
            lastPostFailure = e;
            return false;
        }
    }

    /** Why the last post was refused, or null. */
    VerbsException lastPostFailure() {
        return lastPostFailure;
    }

    CompletionQueue cq() {
        return cq;
    }

    CompletionChannel channel() {
        return channel;
    }

    /** -e: arms the CQ for its next completion (ibv_req_notify_cq(cq, 0)). */
    void requestNotification() throws PingpongException {
        step("Couldn't request CQ notification", () -> {
            cq.requestNotification(false);
            return null;
        });
    }

    /** One more event was taken from the channel. */
    void eventTaken() {
        eventsTaken++;
    }

    /** ibv_ack_cq_events(cq, num_cq_events): a CQ with unacknowledged events cannot be destroyed. */
    private void acknowledgeEvents() {
        if (eventsTaken > 0) {
            cq.ackEvents(eventsTaken);
            eventsTaken = 0;
        }
    }

    /**
     * What the client of the tools' -c writes before its first send: at the start of each page of
     * the message, {@code i / page_size % sizeof(char)}. sizeof(char) is 1, so that is 0 on every
     * page; the server checks exactly this.
     */
    void writeValidationPattern() {
        ByteBuffer buf = mr.buffer();
        for (int i = 0; i < options.size(); i += PAGE_SIZE) {
            buf.put(tool.headroom() + i, (byte) (i / PAGE_SIZE % Byte.BYTES));
        }
    }

    /** The pages whose first byte is not what {@link #writeValidationPattern()} writes, in order. */
    List<Integer> invalidPages() {
        ByteBuffer buf = mr.buffer();
        List<Integer> invalid = new ArrayList<>();
        for (int i = 0; i < options.size(); i += PAGE_SIZE) {
            if (buf.get(tool.headroom() + i) != (byte) (i / PAGE_SIZE % Byte.BYTES)) {
                invalid.add(i / PAGE_SIZE);
            }
        }
        return invalid;
    }

    @Override
    public void close() {
        closer.close();
    }

    /** One verbs call whose failure the tool reports with {@code failure}. */
    private interface Step<T> {
        T run();
    }

    private static <T> T step(String failure, Step<T> step) throws PingpongException {
        try {
            return step.run();
        } catch (VerbsException e) {
            throw new PingpongException(failure, e);
        }
    }
}
