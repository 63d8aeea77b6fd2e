package io.jroce.rnic.core;


import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttrMask;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ResourceClosedException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;
import io.jroce.verbs.WorkCompletion;

/**
 * A queue pair: the verbs face (validation, posting, Modify QP) on application threads, and the
 * attributes its requester and responder read on the I/O thread. Attribute changes are applied on
 * the I/O thread, so the protocol never sees a half-modified QP.
 */
final class SoftQp implements QueuePair {
    final SoftDevice device;
    final SoftPd pd;
    final int qpn;
    final QpType type;
    final SoftCq sendCq;
    final SoftCq recvCq;
    final boolean sqSigAll;
    final int maxInline;
    final WorkQueueRing<SendWqe> sq;
    final WorkQueueRing<RecvWqe> rq;
    /** The QP's transport: the attributes the protocol reads, and its engines. */
    final QpTransport transport;
    /** {@link #transport}'s per-QP state, which Modify QP writes on the I/O thread. */
    private final QpContext t;
    /** The shared receive queue this QP draws from, or null for its own {@link #rq}. */
    final SoftSrq srq;
    private final int maxSendSge;
    private final int maxRecvSge;
    /** What its queues were charged to the device's {@link MemoryBudget}, refunded when it is destroyed. */
    final long footprint;
    private final Object sqLock = new Object();
    private final Object rqLock = new Object();

    private volatile boolean closed;

    // Attributes only Query QP reads (written on the I/O thread by modify); the protocol's are in t.
    private int pkeyIndex;
    private Mtu pathMtu = Mtu.MTU_256;
    private int rqPsn;
    private int sqPsn;
    private int maxDestRdAtomic;

    SoftQp(SoftDevice device, SoftPd pd, int qpn, QpInitAttributes init) {
        this.device = device;
        this.pd = pd;
        this.qpn = qpn;
        this.type = init.type();
        if (type == null) {
            throw new InvalidAttributeException("qp_type is null");
        }
        if (!(init.sendCq() instanceof SoftCq) || !(init.recvCq() instanceof SoftCq)) {
            throw new InvalidAttributeException("send and receive CQs must be CQs of this device");
        }
        this.sendCq = (SoftCq) init.sendCq();
        this.recvCq = (SoftCq) init.recvCq();
        if (sendCq.device() != device || recvCq.device() != device) {
            throw new InvalidAttributeException("send and receive CQs must belong to device " + device.name());
        }
        sendCq.ensureOpen();
        recvCq.ensureOpen();
        if (init.srq() != null) {
            if (!(init.srq() instanceof SoftSrq) || ((SoftSrq) init.srq()).pd.softDevice() != device) {
                throw new InvalidAttributeException("the SRQ must be an SRQ of device " + device.name());
            }
            ((SoftSrq) init.srq()).ensureOpen();
        }
        this.srq = (SoftSrq) init.srq();
        checkCap("max_send_wr", init.maxSendWr(), 1, DeviceLimits.MAX_QP_WR);
        boolean ownReceiveQueue = init.srq() == null;
        if (ownReceiveQueue) {
            // With an SRQ the QP has no receive queue of its own: its limits are ignored, as rxe does.
            checkCap("max_recv_wr", init.maxRecvWr(), 1, DeviceLimits.MAX_QP_WR);
            checkCap("max_recv_sge", init.maxRecvSge(), 0, DeviceLimits.MAX_SGE);
        }
        checkCap("max_send_sge", init.maxSendSge(), 0, DeviceLimits.MAX_SGE);
        checkCap("max_inline_data", init.maxInlineData(), 0, DeviceLimits.MAX_INLINE_DATA);
        this.sqSigAll = init.sqSigAll();
        this.maxInline = init.maxInlineData();
        int sendSge = Math.max(1, init.maxSendSge());
        int recvSge = ownReceiveQueue ? Math.max(1, init.maxRecvSge()) : 1;
        int recvWr = ownReceiveQueue ? init.maxRecvWr() : 1;
        this.footprint = QueueFootprint.qp(init.maxSendWr(), sendSge, init.maxInlineData(), recvWr, recvSge);
        // Charged before the rings exist: beyond the budget, creation fails before it allocates.
        device.memory().charge(footprint, "a " + type + " QP of max_send_wr=" + init.maxSendWr() + ", max_send_sge="
            + init.maxSendSge() + ", max_inline_data=" + init.maxInlineData() + ", max_recv_wr=" + recvWr
            + ", max_recv_sge=" + init.maxRecvSge());
        try {
            this.sq = new WorkQueueRing<>(init.maxSendWr(), () -> new SendWqe(sendSge, init.maxInlineData()));
            this.rq = new WorkQueueRing<>(recvWr, () -> new RecvWqe(recvSge));
            this.maxSendSge = init.maxSendSge();
            this.maxRecvSge = init.maxRecvSge();
            this.t = new QpContext(qpn, type, pd, sq, rq, srq, sendCq, recvCq);
            this.transport = new QpTransport(device.engine().context(), t, () -> device.qpEnteredError(this));
            if (type == QpType.UD) {
                // UD has no path MTU attribute: a message fits one packet of the port's MTU (IBTA 9.8.3).
                pathMtu = device.activeMtu();
                t.mtu = pathMtu.bytes();
            }
            if (srq != null) {
                srq.attach(); // refused when the SRQ is being destroyed meanwhile
            }
        } catch (RuntimeException e) {
            device.memory().refund(footprint);
            throw e;
        }
    }

    private static void checkCap(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ResourceLimitException(name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    @Override
    public int qpNum() {
        return qpn;
    }

    @Override
    public QpType type() {
        return type;
    }

    @Override
    public QpState state() {
        return t.state;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    // ---------------------------------------------------------------- Modify QP

    @Override
    public synchronized void modify(QpAttributes attrs) {
        ensureOpen();
        Arguments.notNull(attrs, "qp_attr");
        QpState from = t.state;
        QpState to = attrs.has(QpAttrMask.STATE) ? attrs.state() : from;
        QpAttributeChecks.check(attrs, from, device.gids().size());
        QpTransitions.check(type, from, to, attrs.mask());
        device.io().call(() -> {
            apply(attrs, to);
            return null;
        });
    }

    /** Applies a checked Modify QP on the I/O thread. */
    private void apply(QpAttributes a, QpState to) {
        if (a.has(QpAttrMask.ACCESS_FLAGS)) {
            t.accessFlags = a.accessFlags();
        }
        if (a.has(QpAttrMask.PKEY_INDEX)) {
            pkeyIndex = a.pkeyIndex();
        }
        if (a.has(QpAttrMask.QKEY)) {
            t.qkey = a.qkey();
        }
        if (a.has(QpAttrMask.AV)) {
            t.av = a.addressVector().copy();
            device.gids().get(t.av.sgidIndex()).copyTo(t.sgid, 0);
            t.av.destGid().copyTo(t.dgid, 0);
        }
        if (a.has(QpAttrMask.PATH_MTU)) {
            // The QP runs at the smaller of the path MTU and the port's active MTU, as rxe does.
            pathMtu = a.pathMtu().bytes() <= device.activeMtu().bytes() ? a.pathMtu() : device.activeMtu();
            t.mtu = pathMtu.bytes();
        }
        if (a.has(QpAttrMask.TIMEOUT)) {
            t.timeout = a.timeout();
        }
        if (a.has(QpAttrMask.RETRY_CNT)) {
            t.retryCount = a.retryCount();
        }
        if (a.has(QpAttrMask.RNR_RETRY)) {
            t.rnrRetry = a.rnrRetry();
        }
        if (a.has(QpAttrMask.MIN_RNR_TIMER)) {
            t.minRnrTimer = a.minRnrTimer();
        }
        if (a.has(QpAttrMask.MAX_QP_RD_ATOMIC)) {
            t.maxRdAtomic = a.maxRdAtomic();
        }
        if (a.has(QpAttrMask.MAX_DEST_RD_ATOMIC)) {
            maxDestRdAtomic = a.maxDestRdAtomic();
            t.maxDestRdAtomic = maxDestRdAtomic;
        }
        if (a.has(QpAttrMask.DEST_QPN)) {
            t.destQpn = a.destQpNum();
        }
        if (a.has(QpAttrMask.RQ_PSN)) {
            rqPsn = a.rqPsn();
            transport.responder.reset(rqPsn);
        }
        if (a.has(QpAttrMask.SQ_PSN)) {
            sqPsn = a.sqPsn();
            transport.requester.reset(sqPsn);
        }
        QpState from = t.state;
        t.state = to;
        if (to != from) {
            device.engine().context().events.qpStateChanged(qpn, from, to);
        }
        if (to == QpState.RTR && from != QpState.RTR && type != QpType.UD) {
            t.commEstablishedPending = true;
        }
        if (to == QpState.RESET && from != QpState.RESET) {
            synchronized (sqLock) {
                sq.clear();
            }
            synchronized (rqLock) {
                rq.clear();
            }
            transport.requester.reset(0);
            transport.responder.reset(0);
        } else if (to == QpState.ERR) {
            transport.flush();
        } else if (to == QpState.RTS) {
            device.engine().schedule(transport);
        }
    }

    @Override
    public synchronized QpAttributes query() {
        ensureOpen();
        return device.io().call(() -> {
            QpState state = t.state;
            QpAttributes a = new QpAttributes().state(state).currentState(state).accessFlags(t.accessFlags)
                .pkeyIndex(pkeyIndex).portNum(1).qkey(t.qkey).pathMtu(pathMtu).timeout(t.timeout)
                .retryCount(t.retryCount).rnrRetry(t.rnrRetry).rqPsn(transport.responder.expectedPsn())
                .sqPsn(transport.requester.nextPsn()).maxRdAtomic(t.maxRdAtomic).maxDestRdAtomic(maxDestRdAtomic)
                .minRnrTimer(t.minRnrTimer).destQpNum(t.destQpn);
            if (t.av != null) {
                a.addressVector(t.av.copy());
            }
            return a;
        });
    }

    // ---------------------------------------------------------------- posting

    @Override
    public void postSend(SendWorkRequest wr) {
        post(wr, false);
    }

    /** @param type1Bind a BIND_MW of a type 1 window, already checked by {@link #bindMemoryWindow} */
    private void post(SendWorkRequest wr, boolean type1Bind) {
        ensureOpen();
        Arguments.notNull(wr, "send work request");
        SgList.checkEntries(wr); // the list is the caller's: an entry may have been nulled since sgList(...)
        QpState s = t.state;
        if (s == QpState.RESET || s == QpState.INIT || s == QpState.RTR) {
            // IBTA 10.8.2: send work requests may be posted from RTS on (and in SQD, SQE, ERR).
            throw new InvalidStateException("cannot post a send work request in state " + s + "; move the QP to RTS first");
        }
        WrOpcode op = wr.opcode();
        if (op == null) {
            throw new InvalidAttributeException("send work request has no opcode");
        }
        if (wr.numSge() > maxSendSge) {
            throw new InvalidAttributeException("send work request has " + wr.numSge() + " SGEs, max_send_sge is " + maxSendSge);
        }
        SendRequestChecks.opcodeForType(type, op);
        SoftAh ah = null;
        if (type == QpType.UD) {
            ah = SendRequestChecks.ud(pd, wr);
        }
        boolean inline = (wr.sendFlags() & SendFlags.INLINE) != 0;
        if (inline && (op == WrOpcode.RDMA_READ || op.isAtomic())) {
            throw new InvalidAttributeException("IBV_SEND_INLINE is only for SEND and RDMA WRITE, not " + op);
        }
        long length = wr.totalLength();
        if (length > DeviceLimits.MAX_MSG_SIZE) {
            throw new InvalidAttributeException("message of " + length + " bytes exceeds max_msg_sz " + DeviceLimits.MAX_MSG_SIZE);
        }
        if (type == QpType.UD && length > t.mtu) {
            // IBTA 9.8.3: a UD message is one packet.
            throw new InvalidAttributeException("UD message of " + length + " bytes exceeds the MTU " + t.mtu);
        }
        if (inline && length > maxInline) {
            throw new InvalidAttributeException("inline message of " + length + " bytes exceeds max_inline_data " + maxInline);
        }
        // Read once: the request is the caller's, and the bind executed must be the one checked.
        MemoryWindow bindWindow = wr.bindWindow();
        MemoryRegion bindRegion = wr.bindRegion();
        int bindRkey = wr.bindRkey();
        long bindAddress = wr.bindAddress();
        long bindLength = wr.bindLength();
        int bindAccess = wr.bindAccess();
        if (op == WrOpcode.BIND_MW && !type1Bind) {
            SendRequestChecks.bind(pd, bindWindow, bindRkey, bindRegion, bindAddress, bindLength, bindAccess, 2);
        }
        if (op == WrOpcode.SEND_WITH_INV && type != QpType.RC) {
            throw new InvalidAttributeException("SEND_WITH_INV is only available on RC QPs");
        }
        if (op.isAtomic() && (wr.numSge() != 1 || length != 8)) {
            // IBTA 9.4.5: atomics operate on exactly 8 bytes.
            throw new InvalidAttributeException(op + " needs exactly one SGE of 8 bytes, got " + wr.numSge()
                + " SGE(s) totalling " + length);
        }
        if (op.isAtomic() && (wr.remoteAddress() & 7) != 0) {
            throw new InvalidAttributeException(op + " remote address 0x" + Long.toHexString(wr.remoteAddress())
                + " is not 8-byte aligned");
        }
        synchronized (sqLock) {
            SendWqe wqe = sq.claim();
            if (wqe == null) {
                throw new QueueFullException("send queue of QP 0x" + Integer.toHexString(qpn) + " is full ("
                    + sq.capacity() + " work requests outstanding)");
            }
            int localAccess = op == WrOpcode.RDMA_READ || op.isAtomic() ? AccessFlags.LOCAL_WRITE : 0;
            if (inline) {
                loadInline(wqe, wr, length);
            } else {
                wqe.sg.load(wr, pd, device.keys(), localAccess);
                checkUnchanged(wqe.sg, length);
            }
            wqe.isInline = inline;
            wqe.wrId = wr.wrId();
            wqe.opcode = op;
            wqe.signaled = sqSigAll || wr.isSignaled();
            wqe.fence = (wr.sendFlags() & SendFlags.FENCE) != 0;
            wqe.solicited = (wr.sendFlags() & SendFlags.SOLICITED) != 0;
            wqe.length = length;
            wqe.immData = wr.immData();
            wqe.remoteAddress = wr.remoteAddress();
            wqe.rkey = wr.rkey();
            wqe.compareAdd = wr.compareAdd();
            wqe.swap = wr.swap();
            wqe.ah = ah;
            wqe.invalidateRkey = wr.invalidateRkey();
            wqe.bindWindow = op == WrOpcode.BIND_MW ? (WindowAccess) bindWindow : null;
            wqe.bindRkey = bindRkey;
            wqe.bindRegion = op == WrOpcode.BIND_MW ? (RegionAccess) bindRegion : null;
            wqe.bindAddress = bindAddress;
            wqe.bindLength = bindLength;
            wqe.bindAccess = bindAccess;
            wqe.remoteQpn = wr.remoteQpn();
            wqe.remoteQkey = wr.remoteQkey();
            wqe.resetProgress();
            sq.publish();
            device.events().sendPosted(qpn, wqe.wrId, op, length, wqe.signaled); // in the queue's order
        }
        device.engine().schedule(transport);
    }

    @Override
    public int bindMemoryWindow(MemoryWindow window, MemoryRegion region, long address,
                                long length, int access, long wrId, boolean signaled) {
        ensureOpen(); // a destroyed QP says so before any check of the window
        Arguments.notNull(window, "memory window");
        int newRkey = window.nextRkey();
        SendRequestChecks.bind(pd, window, newRkey, region, address, length, access, 1);
        // Type 1 binds go through the send queue like a BIND_MW, so they complete in order.
        SendWorkRequest wr = new SendWorkRequest().wrId(wrId).opcode(WrOpcode.BIND_MW)
            .sendFlags(signaled ? SendFlags.SIGNALED : 0)
            .bindMw(window, newRkey, region, address, length, access);
        post(wr, true);
        return newRkey;
    }

    private void loadInline(SendWqe wqe, SendWorkRequest wr, long length) {
        // Copied now (IBV_SEND_INLINE). Unlike libibverbs, the entries must still lie in registered
        // memory of this PD: Java cannot safely read an arbitrary address.
        wqe.sg.load(wr, pd, device.keys(), 0);
        checkUnchanged(wqe.sg, length);
        if (length > 0) {
            wqe.sg.gather(0, wqe.inlineView, 0, (int) length);
        }
        wqe.sg.clear();
    }

    /**
     * The entries copied into the WQE add up to the length every check was made on: the list is the
     * caller's, and another thread may have changed an entry in between (the WQE would then keep a
     * length its entries do not hold: an atomic's 8 bytes over a shorter entry, a message gathered
     * past its last entry).
     */
    private static void checkUnchanged(SgList sg, long checkedLength) {
        if (sg.totalLength() != checkedLength) {
            throw new InvalidAttributeException("the send work request's sg_list changed while it was posted: "
                + checkedLength + " bytes when checked, " + sg.totalLength() + " when copied");
        }
    }

    @Override
    public void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        Arguments.notNull(wr, "receive work request");
        if (srq != null) {
            throw new InvalidStateException("QP 0x" + Integer.toHexString(qpn) + " takes its receives from an SRQ; post there");
        }
        if (t.state == QpState.RESET) {
            // IBTA 10.8.2: receive work requests may be posted from INIT on.
            throw new InvalidStateException("cannot post a receive work request in state RESET; move the QP to INIT first");
        }
        if (wr.numSge() > maxRecvSge) {
            throw new InvalidAttributeException("receive work request has " + wr.numSge() + " SGEs, max_recv_sge is " + maxRecvSge);
        }
        synchronized (rqLock) {
            RecvWqe wqe = rq.claim();
            if (wqe == null) {
                throw new QueueFullException("receive queue of QP 0x" + Integer.toHexString(qpn) + " is full ("
                    + rq.capacity() + " work requests outstanding)");
            }
            wqe.sg.load(wr, pd, device.keys(), AccessFlags.LOCAL_WRITE);
            wqe.wrId = wr.wrId();
            rq.publish();
            device.events().receivePosted(qpn, wqe.wrId, wqe.sg.totalLength());
        }
        if (t.state == QpState.ERR) {
            device.engine().schedule(transport);
        }
    }

    @Override
    public synchronized void attachMcast(Gid mgid, int mlid) {
        checkMcast(mgid, mlid);
        device.attachMcast(this, mgid);
    }

    @Override
    public synchronized void detachMcast(Gid mgid, int mlid) {
        checkMcast(mgid, mlid);
        device.detachMcast(this, mgid);
    }

    /** What ib_attach_mcast checks first (EINVAL): a UD QP, a multicast GID; on RoCE any 16-bit LID. */
    private void checkMcast(Gid mgid, int mlid) {
        ensureOpen();
        if (mgid == null) {
            throw new InvalidAttributeException("mgid is null");
        }
        if (type != QpType.UD) {
            throw new InvalidAttributeException("only UD QPs attach to multicast groups, QP 0x" + Integer.toHexString(qpn)
                + " is " + type);
        }
        if (!mgid.isMulticast()) {
            throw new InvalidAttributeException(mgid + " is not a multicast GID (ff00::/8 or ::ffff:224.0.0.0/100)");
        }
        if ((mlid & ~0xFFFF) != 0) {
            throw new InvalidAttributeException("mlid is 16 bits, got " + mlid);
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new ResourceClosedException("queue pair 0x" + Integer.toHexString(qpn) + " is destroyed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            device.destroyQp(this);
        } finally {
            // Marked destroyed, it is given back whatever the I/O thread said: else its PD and CQs
            // would count it for ever and its device could never close.
            sendCq.detach();
            recvCq.detach();
            if (srq != null) {
                srq.detach();
            }
            pd.qpDestroyed();
        }
    }

    @Override
    public String toString() {
        return t.toString();
    }
}
