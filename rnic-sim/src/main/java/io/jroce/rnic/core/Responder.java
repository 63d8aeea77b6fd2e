package io.jroce.rnic.core;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.spi.CompletionWriter;

/**
 * The RC responder (IBTA Vol. 1 9.7.4-9.7.5): checks each request's PSN against the expected PSN,
 * executes new requests once, answers duplicates without executing them again, and acknowledges.
 * I/O thread only.
 *
 * <p>State: the responder owns all of the QP's receive-side state (expected PSN, MSN, the
 * message in progress and its receive WQE, the READ and atomic replay records, the responses
 * queued behind READ responses); nothing else reads or writes it. The {@link ResponsePacer}
 * gives it turns to send what it queued. It takes
 * receive WQEs through {@link QpContext#takeRecv} (a message owns its WQE from its first packet),
 * writes completions to the QP's receive {@link CompletionSink}, finds memory by key through
 * {@link RnicContext#keys} as {@link RegionAccess} and {@link WindowAccess}, and moves the QP to
 * ERR through {@link QpErrors}.
 */
final class Responder {
    /** Fills the completions this class generates (their fields are read-only to applications). */
    private static final CompletionWriter WC = CompletionWriter.get();
    private static final int ACK = AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT);
    private final RnicContext ctx;
    private final QpContext qp;
    private final QpErrors errors;
    private final AtomicReplay replay = new AtomicReplay();
    private final ReadReplay reads = new ReadReplay();
    /** Responses not yet sent, in PSN order: READ responses are built as the {@link ResponsePacer} allows. */
    private final ResponseQueue responses = new ResponseQueue();
    /** Whether the {@link ResponsePacer} holds this responder (the pacer's own flag). */
    boolean paced;
    private final GrhWriter grh = new GrhWriter();
    /** The PSN the next new request must carry (ePSN). */
    private int expectedPsn;
    /** Message sequence number: messages completed (IBTA 9.7.5.1.2). */
    private int msn;
    /** One PSN sequence error NAK per gap (IBTA 9.7.5.1.2, C9-106). */
    private boolean sequenceNakSent;

    // The message in progress (a multi-packet SEND or RDMA WRITE).
    private Operation inProgress;
    /** The receive WQE the message in progress owns, or null. */
    private RecvWqe recvWqe;
    /** Where a WQE taken off the SRQ is kept while its message is in progress (null without an SRQ). */
    private final RecvWqe srqWqe;
    private long received;
    // The RDMA WRITE in progress: its RETH, kept to check every later packet again.
    private long writeVa;
    private int writeRkey;
    private long writeLength;
    private long written;

    Responder(RnicContext ctx, QpContext qp, QpErrors errors) {
        this.ctx = ctx;
        this.qp = qp;
        this.errors = errors;
        this.srqWqe = qp.srq == null ? null : new RecvWqe(DeviceLimits.MAX_SGE);
    }

    void reset(int rqPsn) {
        expectedPsn = rqPsn;
        msn = 0;
        sequenceNakSent = false;
        abort();
        replay.clear();
        reads.clear();
        responses.clear();
    }

    /** Whether responses are queued for the {@link ResponsePacer}. */
    boolean hasResponses() {
        return !responses.isEmpty();
    }

    int expectedPsn() {
        return expectedPsn;
    }

    /** Forgets the message in progress (its receive WQE is flushed by the QP). */
    void abort() {
        abandonMessage();
        recvWqe = null;
    }

    /**
     * Flush (IBTA 10.3.1): a WQE the message in progress took off the SRQ belongs to this QP now
     * and completes with WR_FLUSH_ERR (the QP's own queue is flushed by the QP).
     */
    void flushSrqWqe() {
        if (recvWqe != null && recvWqe == srqWqe) {
            completeRecv(WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, false, 0);
        }
    }

    /** Forgets the message in progress but keeps its receive WQE for the next message (UC). */
    private void abandonMessage() {
        inProgress = null;
    }

    /** A request packet of a connected QP; its PSN state, when the packet moved it, goes to the events. */
    void onRequest(RocePacket p, long nowNs) {
        int expectedBefore = expectedPsn;
        int msnBefore = msn;
        handleRequest(p);
        if (expectedPsn != expectedBefore || msn != msnBefore) {
            ctx.events.responderPsnsUpdated(qp.qpn, expectedPsn, msn);
        }
    }

    private void handleRequest(RocePacket p) {
        int psn = p.bth().psn();
        if (qp.type == QpType.UC && !ucInSequence(p.info(), psn)) {
            return;
        }
        int order = Psn.compare(psn, expectedPsn);
        if (order > 0) {
            ctx.counters.increment(Counter.OUT_OF_SEQ_REQUEST);
            if (!sequenceNakSent) {
                sequenceNakSent = true;
                respond(expectedPsn, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
                ctx.events.nakSent(qp.qpn, expectedPsn, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            }
            return;
        }
        if (order < 0) {
            ctx.counters.increment(Counter.DUPLICATE_REQUEST);
            onDuplicate(p, psn);
            return;
        }
        sequenceNakSent = false;
        OpcodeInfo info = p.info();
        if (!sequenceValid(info)) {
            // Opcode sequence check: a MIDDLE/LAST needs a FIRST of the same operation, a FIRST/ONLY
            // none in progress. UC drops such packets (its message was already abandoned).
            if (qp.type == QpType.UC) {
                expectedPsn = Psn.next(psn);
                ctx.counters.increment(Counter.DROP_UC_MESSAGE);
                return;
            }
            error(psn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR);
            return;
        }
        switch (info.operation()) {
            case SEND -> onSend(p, info, psn);
            case RDMA_WRITE -> onWrite(p, info, psn);
            case RDMA_READ_REQUEST -> onRead(p, psn, false);
            case COMPARE_SWAP, FETCH_ADD -> onAtomic(p, info, psn);
            default -> ctx.counters.increment(Counter.DROP_UNKNOWN_OPCODE);
        }
    }

    /**
     * UC has no retransmission: a PSN other than the expected one means packets were lost. The
     * message in progress is abandoned (its receive WQE stays for the next message) and only a
     * FIRST or ONLY packet may start a new one.
     */
    private boolean ucInSequence(OpcodeInfo info, int psn) {
        if (psn == expectedPsn) {
            return true;
        }
        ctx.counters.increment(Counter.OUT_OF_SEQ_REQUEST);
        if (inProgress != null) {
            abortUcMessage();
        }
        if (!info.position().startsMessage()) {
            expectedPsn = Psn.next(psn);
            ctx.counters.increment(Counter.DROP_UC_MESSAGE);
            return false;
        }
        expectedPsn = psn;
        return true;
    }

    private void abortUcMessage() {
        ctx.counters.increment(Counter.DROP_UC_MESSAGE);
        abandonMessage(); // its receive WQE stays for the next message
    }

    /**
     * A UD SEND ONLY (IBTA 9.8.3): the Q_Key must match the QP's (a remote Q_Key with the
     * high bit set was already replaced by the sender), the message goes to the next receive WQE
     * after the 40-byte GRH area, and nothing is acknowledged.
     */
    void onDatagram(RocePacket p, byte[] src, byte[] dst) {
        if (p.deth().qKey() != qp.qkey) {
            ctx.counters.increment(Counter.DROP_BAD_QKEY);
            return;
        }
        RecvWqe r = qp.recvHead();
        if (r == null) {
            ctx.counters.increment(Counter.DROP_NO_RECV_WQE);
            return;
        }
        long wrId = r.wrId;
        int srcQp = p.deth().sourceQp();
        boolean imm = p.info().hasImmediate();
        int immData = imm ? p.immDt().immediateData() : 0;
        int len = p.payloadLength();
        boolean solicited = p.bth().solicitedEvent();
        WcStatus status;
        if (!r.sg.regionsValid(ctx.keys)) {
            status = WcStatus.LOC_PROT_ERR;
        } else if (GrhWriter.GRH_LENGTH + len > r.sg.totalLength()) {
            status = WcStatus.LOC_LEN_ERR;
        } else {
            r.sg.scatter(0, grh.write(src, dst, p.length()), 0, GrhWriter.GRH_LENGTH);
            if (len > 0) {
                r.sg.scatter(GrhWriter.GRH_LENGTH, p.buffer(), p.payloadOffset(), len);
            }
            status = WcStatus.SUCCESS;
            ctx.counters.increment(Counter.RDMA_RECVS);
        }
        qp.consumeRecv(); // before the completion is visible: a poller may post into the freed slot at once
        boolean ok = status == WcStatus.SUCCESS;
        WorkCompletion wc = qp.recvCq.claim();
        if (wc != null) {
            WC.set(wc, wrId, status, WcOpcode.RECV, ok ? GrhWriter.GRH_LENGTH + len : 0, ok && imm,
                ok && imm ? immData : 0, qp.qpn, srcQp, 0);
            WC.grh(wc, ok);
            qp.recvCq.publish(solicited);
        }
    }

    private boolean sequenceValid(OpcodeInfo info) {
        Position pos = info.position();
        if (inProgress == null) {
            return pos.startsMessage();
        }
        return !pos.startsMessage() && info.operation() == inProgress;
    }

    private void onSend(RocePacket p, OpcodeInfo info, int psn) {
        Position pos = info.position();
        if (pos.startsMessage() && !takeRecvWqe(psn)) {
            return;
        }
        if (!checkSegmentLength(p, pos, psn)) {
            return;
        }
        RecvWqe r = recvWqe;
        int len = p.payloadLength();
        if (!pos.startsMessage() && !r.sg.regionsValid(ctx.keys)) {
            // Every packet checks the receive buffers' lkeys again, as rxe's copy_data does: one may
            // have been deregistered since the FIRST took the WQE (takeRecvWqe checked them then).
            error(psn, NakCode.REMOTE_OPERATIONAL_ERROR, WcStatus.LOC_PROT_ERR);
            return;
        }
        if (len > 0 && !r.sg.scatter(received, p.buffer(), p.payloadOffset(), len)) {
            // The message is longer than the receive buffers: the receive completes with a length
            // error and the request is NAKed "invalid request" (IBTA 9.7.5.2.2).
            error(psn, NakCode.INVALID_REQUEST, WcStatus.LOC_LEN_ERR);
            return;
        }
        received += len;
        inProgress = pos.endsMessage() ? null : info.operation();
        if (pos.endsMessage() && info.hasInvalidate()) {
            int rkey = p.ieth().rKey();
            WindowAccess mw = ctx.keys.lookupWindow(rkey);
            if (mw == null || mw.type() != 2 || mw.protectionDomain() != qp.pd || !mw.isBound()) {
                // Only a valid type 2 window of the QP's PD can be invalidated remotely.
                error(psn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR);
                return;
            }
            mw.invalidate();
            long wrId = recvWqe.wrId;
            qp.retireRecv(); // before the completion is visible, as in completeRecv
            WorkCompletion wc = qp.recvCq.claim();
            if (wc != null) {
                WC.set(wc, wrId, WcStatus.SUCCESS, WcOpcode.RECV, (int) received, false, 0, qp.qpn, qp.destQpn, 0);
                WC.invalidatedRkey(wc, rkey);
                qp.recvCq.publish(p.bth().solicitedEvent());
            }
            recvWqe = null;
            ctx.counters.increment(Counter.RDMA_RECVS);
            msn = Psn.next(msn);
        } else if (pos.endsMessage()) {
            boolean imm = info.hasImmediate();
            completeRecv(WcStatus.SUCCESS, WcOpcode.RECV, received, imm, imm ? p.immDt().immediateData() : 0,
                p.bth().solicitedEvent());
            ctx.counters.increment(Counter.RDMA_RECVS);
            msn = Psn.next(msn);
        }
        accept(p, psn);
    }

    private void onWrite(RocePacket p, OpcodeInfo info, int psn) {
        Position pos = info.position();
        if (pos.startsMessage()) {
            long va = p.reth().virtualAddress();
            int rkey = p.reth().rKey();
            long len = Integer.toUnsignedLong((int) p.reth().dmaLength());
            if (len != 0 && checkRemoteAccess(va, rkey, len, AccessFlags.REMOTE_WRITE) == null) {
                error(psn, NakCode.REMOTE_ACCESS_ERROR, WcStatus.REM_ACCESS_ERR);
                return;
            }
            writeVa = va;
            writeRkey = rkey;
            writeLength = len;
            written = 0;
        }
        if (info.hasImmediate() && recvWqe == null && !takeRecvWqe(psn)) {
            return; // WRITE with immediate consumes a receive WQE: RNR NAK until one is posted.
        }
        if (!checkSegmentLength(p, pos, psn)) {
            return;
        }
        int len = p.payloadLength();
        if (written + len > writeLength || (pos.endsMessage() && written + len != writeLength)) {
            // The payload must add up to the RETH's DMA length, no more and no less.
            error(psn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR);
            return;
        }
        if (len > 0) {
            // The key and range are checked again for every packet, as rxe does: the region may have
            // been deregistered, or the window invalidated, since the FIRST (both happen on this thread).
            long va = writeVa + written;
            RegionAccess mr = checkRemoteAccess(va, writeRkey, len, AccessFlags.REMOTE_WRITE);
            if (mr == null) {
                error(psn, NakCode.REMOTE_ACCESS_ERROR, WcStatus.REM_ACCESS_ERR);
                return;
            }
            mr.view().putBytes((int) mr.offsetOf(va, len), p.buffer(), p.payloadOffset(), len);
        }
        written += len;
        inProgress = pos.endsMessage() ? null : info.operation();
        if (pos.endsMessage()) {
            if (info.hasImmediate()) {
                completeRecv(WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, writeLength, true, p.immDt().immediateData(),
                    p.bth().solicitedEvent());
            }
            msn = Psn.next(msn);
        }
        accept(p, psn);
    }

    /** FIRST and MIDDLE packets carry exactly one path MTU of payload, LAST and ONLY at most one. */
    private boolean checkSegmentLength(RocePacket p, Position pos, int psn) {
        int len = p.payloadLength();
        boolean ok = pos.endsMessage() ? len <= qp.mtu : len == qp.mtu;
        if (!ok) {
            error(psn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR);
        }
        return ok;
    }

    private void onRead(RocePacket p, int psn, boolean duplicate) {
        long va = p.reth().virtualAddress();
        int rkey = p.reth().rKey();
        long len = Integer.toUnsignedLong((int) p.reth().dmaLength());
        int packets = len == 0 ? 1 : (int) ((len + qp.mtu - 1) / qp.mtu);
        if (duplicate && !reads.matches(psn, packets, va, len, rkey)) {
            // Only a READ this responder executed may be answered again, and only within it: any
            // other past PSN would read memory nobody asked for in sequence.
            ctx.counters.increment(Counter.DROP_UNMATCHED_READ);
            return;
        }
        if (!duplicate && !resourceFree()) {
            return;
        }
        RegionAccess mr = len == 0 ? null : checkRemoteAccess(va, rkey, len, AccessFlags.REMOTE_READ);
        if (len != 0 && mr == null) {
            if (!duplicate) {
                error(psn, NakCode.REMOTE_ACCESS_ERROR, WcStatus.REM_ACCESS_ERR);
            }
            return;
        }
        int last = Psn.add(psn, packets - 1);
        if (!duplicate) {
            reads.record(psn, last, va, len, rkey);
            expectedPsn = Psn.add(psn, packets);
            msn = Psn.next(msn);
            responses.addRead(psn, last, va, len, rkey, msn);
        } else if (!responses.restartRead(psn, last, va, len, rkey)) {
            // A replay restarts from the PSN asked for; one whose READ is no longer queued is
            // queued again while resources last (the duplicate is counted already).
            if (responses.readAtomicCount() >= Math.max(1, qp.maxDestRdAtomic)
                || !responses.addRead(psn, last, va, len, rkey, msn)) {
                return;
            }
        }
        ctx.pacer.add(this);
    }

    /**
     * Whether a new READ or atomic may take a responder resource (IBTA 9.7.5.1.3): at most
     * max_dest_rd_atomic are being answered at a time, none with 0. Beyond that the request is
     * NAKed "invalid request", as rxe's check_resource does with max_dest_rd_atomic 0; a requester
     * that keeps to max_rd_atomic never has more outstanding.
     */
    private boolean resourceFree() {
        if (qp.maxDestRdAtomic == 0 || responses.readAtomicCount() >= qp.maxDestRdAtomic) {
            error(expectedPsn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR);
            return false;
        }
        return true;
    }

    /**
     * Sends up to {@code max} queued responses, in order, and returns how many were sent. Each
     * READ response reads the memory as it is now, after checking the key and range again (as
     * rxe does per packet): a region deregistered or a window invalidated since the request ends
     * the READ with a remote access error NAK. I/O thread, called by the {@link ResponsePacer}.
     */
    int sendResponses(int max) {
        QpState state = qp.state;
        if (state != QpState.RTR && state != QpState.RTS && state != QpState.SQD) {
            int sent = sendOwedAcknowledgements();
            responses.clear();
            return sent;
        }
        int sent = 0;
        while (sent < max && !responses.isEmpty()) {
            switch (responses.kind()) {
                case ResponseQueue.READ -> {
                    if (!sendReadResponse()) {
                        return sent;
                    }
                }
                case ResponseQueue.ATOMIC_ACKNOWLEDGE -> {
                    buildAtomicAck(responses.firstPsn(), responses.original(), responses.msn());
                    responses.removeHead();
                }
                default -> {
                    ctx.sender.acknowledge(qp, responses.firstPsn(), responses.syndrome(), responses.msn());
                    responses.removeHead();
                }
            }
            sent++;
        }
        return sent;
    }

    /** The head READ's next response packet; false if its access failed (the QP is in error). */
    private boolean sendReadResponse() {
        int psn = responses.nextPsn();
        int first = responses.firstPsn();
        int last = responses.lastPsn();
        long va = responses.address();
        int payload = (int) Math.min(qp.mtu, responses.remaining());
        RegionAccess mr = null;
        if (payload > 0) {
            mr = checkRemoteAccess(va, responses.rkey(), payload, AccessFlags.REMOTE_READ);
            if (mr == null) {
                error(psn, NakCode.REMOTE_ACCESS_ERROR, null);
                return false;
            }
        }
        int opcode = first == last ? Opcode.RC_RDMA_READ_RESPONSE_ONLY
            : psn == first ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
            : psn == last ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
        PacketSender out = ctx.sender;
        RocePacket r = out.begin(qp, opcode, psn, payload);
        if (r.info().has(ExtensionHeader.AETH)) {
            r.aeth().syndrome(ACK).msn(responses.msn());
        }
        if (payload > 0) {
            out.buffer().putBytes(r.payloadOffset(), mr.view(), (int) mr.offsetOf(va, payload), payload);
        }
        out.send(qp);
        responses.advance(payload);
        if (psn == last) {
            responses.removeHead();
        }
        return true;
    }

    private void onAtomic(RocePacket p, OpcodeInfo info, int psn) {
        if (!resourceFree()) {
            return;
        }
        long va = p.atomicEth().virtualAddress();
        int rkey = p.atomicEth().rKey();
        if ((va & 7) != 0) {
            error(psn, NakCode.INVALID_REQUEST, WcStatus.REM_INV_REQ_ERR); // an atomic needs an 8-byte aligned address
            return;
        }
        RegionAccess mr = checkRemoteAccess(va, rkey, 8, AccessFlags.REMOTE_ATOMIC);
        if (mr == null) {
            error(psn, NakCode.REMOTE_ACCESS_ERROR, WcStatus.REM_ACCESS_ERR);
            return;
        }
        int index = (int) mr.offsetOf(va, 8);
        long original;
        if (info.operation() == Operation.COMPARE_SWAP) {
            long compare = p.atomicEth().compareData();
            long swap = p.atomicEth().swapAddData();
            // Atomic with respect to this RNIC and local CPU access (ATOMIC_HCA); native byte order, as rxe.
            do {
                original = mr.view().getLongVolatile(index);
            } while (original == compare && !mr.view().compareAndSetLong(index, compare, swap));
        } else {
            original = mr.view().getAndAddLong(index, p.atomicEth().swapAddData());
        }
        replay.record(psn, original);
        expectedPsn = Psn.next(psn);
        msn = Psn.next(msn);
        sendAtomicAck(psn, original);
    }

    /** An atomic's acknowledgement: now, or after the responses queued before it. */
    private void sendAtomicAck(int psn, long original) {
        if (responses.isEmpty()) {
            buildAtomicAck(psn, original, msn);
        } else {
            responses.addAtomicAcknowledge(psn, original, msn);
        }
    }

    /**
     * Sends the acknowledgements at the head of the queue, those before any READ or atomic: each
     * would have gone at once had a coalesced ACK ({@link #respond}) not been waiting before it. The
     * requests they answer were executed, and their completions may already have been polled, so a
     * class-2 error, a Modify QP to ERR or a destroy that comes before the pacer's turn must not
     * take them back. Returns the packets sent.
     */
    int sendOwedAcknowledgements() {
        int sent = 0;
        while (!responses.isEmpty() && responses.kind() == ResponseQueue.ACKNOWLEDGE) {
            ctx.sender.acknowledge(qp, responses.firstPsn(), responses.syndrome(), responses.msn());
            responses.removeHead();
            sent++;
        }
        if (sent > 0) {
            ctx.sender.flushIfNeeded();
        }
        return sent;
    }

    private void buildAtomicAck(int psn, long original, int msnValue) {
        PacketSender out = ctx.sender;
        RocePacket r = out.begin(qp, Opcode.RC_ATOMIC_ACKNOWLEDGE, psn, 0);
        r.aeth().syndrome(ACK).msn(msnValue);
        r.atomicAckEth().originalRemoteData(original);
        out.send(qp);
    }

    /**
     * An ACK, RNR NAK or NAK. An ACK is queued and sent when the {@link ResponsePacer} gives this
     * responder its turn, after the I/O loop has handled the datagrams it read with this one: the
     * ACKs of the requests of one receive batch coalesce into the last one (an ACK acknowledges
     * every PSN up to its own, IBTA 9.7.5.1.1), so a burst of small WRITEs costs one ACK per batch,
     * not one per WRITE (Linux's hfi1 driver defers its ACKs to the end of a receive session for
     * the same reason). A NAK or RNR NAK goes at once, or after the responses queued before it
     * (responses keep PSN order).
     */
    private void respond(int psn, int syndrome) {
        if (syndrome == ACK) {
            responses.addAcknowledge(psn, syndrome, msn, true);
            ctx.pacer.add(this);
        } else if (responses.isEmpty()) {
            ctx.sender.acknowledge(qp, psn, syndrome, msn);
        } else {
            responses.addAcknowledge(psn, syndrome, msn, false);
        }
    }

    /**
     * A request with a PSN already executed (IBTA 9.7.5.1.3): SEND and WRITE are acknowledged again
     * but not executed; a READ is executed again from its PSN if it lies within a READ executed
     * before ({@link ReadReplay}); an atomic is answered from the replay
     * record and never applied twice.
     */
    private void onDuplicate(RocePacket p, int psn) {
        switch (p.info().operation()) {
            case RDMA_READ_REQUEST -> onRead(p, psn, true);
            case COMPARE_SWAP, FETCH_ADD -> {
                if (replay.contains(psn)) {
                    sendAtomicAck(psn, replay.original(psn));
                }
            }
            default -> {
                // Acknowledge the duplicate itself, when it asks: ePSN - 1 could be the last PSN of a
                // READ whose responses the requester is still missing, and would read as an implicit NAK.
                if (p.bth().ackRequest()) {
                    respond(psn, ACK);
                }
            }
        }
    }

    /** The region {@code rkey} names if it may be accessed as asked (IBTA 9.7.4.1.5, C9-88..C9-92). */
    private RegionAccess checkRemoteAccess(long va, int rkey, long len, int access) {
        if (!qp.allows(access)) {
            return null; // the QP's own access flags forbid the operation
        }
        RegionAccess mr = ctx.keys.lookup(rkey);
        if (mr == null) {
            WindowAccess mw = ctx.keys.lookupWindow(rkey);
            return mw == null ? null : mw.check(qp, va, len, access); // through a memory window (IBTA 10.6.7)
        }
        if (mr.protectionDomain() != qp.pd || !mr.allows(access) || mr.offsetOf(va, len) < 0) {
            return null;
        }
        return mr;
    }

    /**
     * Takes the next receive WQE for a new message (or keeps the one a UC message abandoned), or
     * sends an RNR NAK (IBTA 9.7.5.2.8).
     */
    private boolean takeRecvWqe(int psn) {
        RecvWqe r = recvWqe != null ? recvWqe : qp.takeRecv(srqWqe);
        if (r == null) {
            if (qp.type == QpType.UC) {
                ctx.counters.increment(Counter.DROP_NO_RECV_WQE); // UC cannot RNR NAK: drop
                return false;
            }
            ctx.counters.increment(Counter.SEND_RNR_ERR);
            respond(psn, AethSyndrome.rnrNak(qp.minRnrTimer));
            ctx.events.nakSent(qp.qpn, psn, AethSyndrome.rnrNak(qp.minRnrTimer));
            return false;
        }
        recvWqe = r;
        received = 0;
        if (!r.sg.regionsValid(ctx.keys)) {
            // A receive buffer was deregistered after the post: local protection error here,
            // remote operational error for the requester (IBTA 9.7.5.2.4).
            error(psn, NakCode.REMOTE_OPERATIONAL_ERROR, WcStatus.LOC_PROT_ERR);
            return false;
        }
        return true;
    }

    private void completeRecv(WcStatus status, WcOpcode opcode, long byteLen, boolean withImm, int imm) {
        completeRecv(status, opcode, byteLen, withImm, imm, false);
    }

    private void completeRecv(WcStatus status, WcOpcode opcode, long byteLen, boolean withImm, int imm,
                              boolean solicited) {
        long wrId = recvWqe.wrId;
        qp.retireRecv(); // before the completion is visible: a poller may post into the freed slot at once
        WorkCompletion wc = qp.recvCq.claim();
        if (wc != null) {
            WC.set(wc, wrId, status, opcode, (int) byteLen, withImm, withImm ? imm : 0, qp.qpn, qp.destQpn, 0);
            qp.recvCq.publish(solicited);
        }
        recvWqe = null;
    }

    /** The request was executed: advance the expected PSN and acknowledge when asked (IBTA 9.7.5.1.1). */
    private void accept(RocePacket p, int psn) {
        expectedPsn = Psn.next(psn);
        if (qp.type == QpType.RC && p.bth().ackRequest()) {
            respond(psn, ACK);
        }
    }

    /**
     * A class-2 error (invalid request, remote access): NAK it and move the QP to ERR, as rxe does;
     * a receive WQE in use completes with {@code recvStatus} first.
     */
    private void error(int psn, NakCode code, WcStatus recvStatus) {
        if (qp.type == QpType.UC) {
            // UC has no NAK: the message is dropped; only a receive that overflowed completes (in error).
            if (recvWqe != null && recvStatus == WcStatus.LOC_LEN_ERR) {
                completeRecv(recvStatus, WcOpcode.RECV, 0, false, 0);
            }
            expectedPsn = Psn.next(psn);
            ctx.counters.increment(Counter.DROP_UC_ACCESS);
            abandonMessage(); // a receive WQE it took stays for the next message
            return;
        }
        sendOwedAcknowledgements(); // before the NAK, as they would have gone without coalescing
        QpState from = qp.state;
        qp.state = QpState.ERR;
        if (from != QpState.ERR) {
            ctx.events.qpStateChanged(qp.qpn, from, QpState.ERR);
        }
        responses.clear(); // the QP is in error: no READ response queued goes out, the NAK goes now
        if (recvWqe != null && recvStatus != null) {
            completeRecv(recvStatus, WcOpcode.RECV, 0, false, 0);
        }
        ctx.sender.nak(qp, psn, code, msn);
        ctx.events.nakSent(qp.qpn, psn, AethSyndrome.nak(code));
        errors.enterError();
    }
}
