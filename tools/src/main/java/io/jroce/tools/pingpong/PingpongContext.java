package io.jroce.tools.pingpong;

import io.jroce.rnic.SoftRnic;
import io.jroce.tools.Closer;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.VerbsException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The verbs resources of one side (struct pingpong_context): a device, a PD, one buffer registered
 * with LOCAL_WRITE that every send and receive uses, a CQ of rx_depth + 1 entries and an RC QP
 * (max_send_wr 1, max_recv_wr rx_depth, one SGE each), created and connected with exactly the
 * attributes ibv_rc_pingpong uses (pp_init_ctx, pp_connect_ctx).
 */
final class PingpongContext implements AutoCloseable {
    static final int RECV_WRID = 1;
    static final int SEND_WRID = 2;
    /** sysconf(_SC_PAGESIZE) on the machines ibv_rc_pingpong runs on; -c marks the first byte of each page. */
    static final int PAGE_SIZE = 4096;

    private final Closer closer = new Closer();
    private final PingpongOptions options;
    private RdmaDevice device;
    /** The completion channel of -e, or null. */
    private CompletionChannel channel;
    /** CQ events taken from {@link #channel} (num_cq_events), acknowledged before the CQ is destroyed. */
    private int eventsTaken;
    private MemoryRegion mr;
    private CompletionQueue cq;
    private QueuePair qp;
    private int sendFlags = SendFlags.SIGNALED;
    /** Why the last post failed, for the error message (ibv_rc_pingpong only counts). */
    private VerbsException lastPostFailure;
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest().wrId(RECV_WRID);
    private final SendWorkRequest sendWr = new SendWorkRequest().wrId(SEND_WRID);

    private PingpongContext(PingpongOptions options) {
        this.options = options;
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
        SoftRnic.Builder builder = SoftRnic.builder().name(options.deviceName()).udpPort(options.udpPort());
        options.binds().forEach(builder::address);
        if (options.pcap() != null) {
            builder.pcap(options.pcap());
        }
        device = step("Couldn't get context for " + options.deviceName(), () -> closer.register(builder.open()));
        if (options.flags().events()) {
            channel = step("Couldn't create completion channel",
                () -> closer.register(device.createCompletionChannel()));
        }
        ProtectionDomain pd = step("Couldn't allocate PD", () -> closer.register(device.allocPd()));
        mr = registerBuffer(pd);
        cq = step("Couldn't create CQ", () -> closer.register(channel == null
            ? device.createCq(options.rxDepth() + 1) : device.createCq(options.rxDepth() + 1, channel)));
        closer.register(this::acknowledgeEvents); // closed before the CQ
        QpInitAttributes init = new QpInitAttributes().type(QpType.RC).cq(cq)
            .maxSendWr(1).maxRecvWr(options.rxDepth()).maxSendSge(1).maxRecvSge(1);
        qp = step("Couldn't create QP", () -> closer.register(pd.createQp(init)));
        // ibv_rc_pingpong sends inline when the QP's max_inline_data covers the message. It asks for
        // none, and a jroce QP has exactly the inline room it asked for, so it never does.
        if (init.maxInlineData() >= options.size()) {
            sendFlags |= SendFlags.INLINE;
        }
        step("Failed to modify QP to INIT", () -> {
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1).accessFlags(0));
            return null;
        });
        ScatterGatherEntry sge = ScatterGatherEntry.of(mr, 0, options.size());
        recvWr.sgList(sge);
        sendWr.sgList(sge).sendFlags(sendFlags);
    }

    /** memalign + memset(0x7b) + ibv_reg_mr in one: jroce allocates registered memory itself. */
    private MemoryRegion registerBuffer(ProtectionDomain pd) throws PingpongException {
        MemoryRegion region;
        try {
            region = step("Couldn't register MR",
                () -> closer.register(pd.allocateMemory(options.size(), AccessFlags.LOCAL_WRITE)));
        } catch (OutOfMemoryError e) {
            throw new PingpongException("Couldn't allocate work buf.", e);
        }
        ByteBuffer buf = region.buffer();
        for (int i = 0; i < options.size(); i++) {
            buf.put(i, (byte) 0x7b);
        }
        return region;
    }

    RdmaDevice device() {
        return device;
    }

    int qpNum() {
        return qp.qpNum();
    }

    /** The GID at {@code index} (ibv_query_gid). */
    Gid gid(int index) throws PingpongException {
        if (index < 0 || index >= device.gids().size()) {
            throw new PingpongException("can't read sgid of index " + index + " (the device has "
                + device.gids().size() + " GID(s), one per --bind address)");
        }
        return device.gids().get(index);
    }

    /**
     * pp_connect_ctx: RTR towards {@code dest}, then RTS. The address vector gets a GRH (hop limit
     * 1) only when the peer's GID has a non-zero interface ID, as in ibv_rc_pingpong; RoCE needs
     * one, so a peer that sent no GID (run without -g) cannot be reached.
     */
    void connect(PingpongDest dest, int myPsn) throws PingpongException {
        AddressVector av = new AddressVector().serviceLevel(options.sl()).udpPort(options.peerUdpPort());
        if (dest.hasGlobalRoute()) {
            av.destGid(dest.gid()).hopLimit(1).sgidIndex(options.sgidIndex());
            checkSameFamily(dest.gid(), gid(options.sgidIndex()));
        }
        step("Failed to modify QP to RTR", () -> {
            qp.modify(new QpAttributes().state(QpState.RTR).pathMtu(options.mtu()).addressVector(av)
                .destQpNum(dest.qpn()).rqPsn(dest.psn()).maxDestRdAtomic(1).minRnrTimer(12));
            return null;
        });
        step("Failed to modify QP to RTS", () -> {
            qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCount(7).rnrRetry(7)
                .sqPsn(myPsn).maxRdAtomic(1));
            return null;
        });
    }

    /**
     * An IPv4 GID cannot send to an IPv6 one: the packets would leave from a socket of the other
     * family. Said here, before the QP retries into the void.
     */
    private static void checkSameFamily(Gid peer, Gid local) throws PingpongException {
        if (peer.isIpv4Mapped() != local.isIpv4Mapped()) {
            throw new PingpongException("Failed to modify QP to RTR: the peer's GID " + GidText.format(peer)
                + " and the local GID " + GidText.format(local) + " are of different IP versions (--bind an address"
                + " of the peer's family)");
        }
    }

    /** pp_post_recv: posts up to {@code n} receives of the whole buffer; returns how many were posted. */
    int postRecv(int n) {
        for (int i = 0; i < n; i++) {
            try {
                qp.postRecv(recvWr);
            } catch (VerbsException e) {
                lastPostFailure = e;
                return i;
            }
        }
        return n;
    }

    /** pp_post_send: one signaled SEND of the whole buffer; false when the QP refuses it. */
    boolean postSend() {
        try {
            qp.postSend(sendWr);
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
     * What the client of ibv_rc_pingpong -c writes before its first send: at the start of each
     * page, {@code i / page_size % sizeof(char)}. sizeof(char) is 1, so that is 0 on every page;
     * the server checks exactly this.
     */
    void writeValidationPattern() {
        ByteBuffer buf = mr.buffer();
        for (int i = 0; i < options.size(); i += PAGE_SIZE) {
            buf.put(i, (byte) (i / PAGE_SIZE % Byte.BYTES));
        }
    }

    /** The pages whose first byte is not what {@link #writeValidationPattern()} writes, in order. */
    List<Integer> invalidPages() {
        ByteBuffer buf = mr.buffer();
        List<Integer> invalid = new ArrayList<>();
        for (int i = 0; i < options.size(); i += PAGE_SIZE) {
            if (buf.get(i) != (byte) (i / PAGE_SIZE % Byte.BYTES)) {
                invalid.add(i / PAGE_SIZE);
            }
        }
        return invalid;
    }

    @Override
    public void close() {
        closer.close();
    }

    /** One verbs call whose failure ibv_rc_pingpong reports with {@code failure}. */
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
