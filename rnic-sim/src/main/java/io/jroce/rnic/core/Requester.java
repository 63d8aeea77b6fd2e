package io.jroce.rnic.core;

import io.jroce.rnic.events.RetransmitCause;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.Psn;
import io.jroce.stack.wire.RocePacket;
import io.jroce.stack.wire.TransportType;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WrOpcode;

/**
 * The RC requester (IBTA Vol. 1 9.7): turns send WQEs into request packets, segmented by the path
 * MTU, keeps at most {@link #WINDOW} PSNs unacknowledged, and goes back to the oldest
 * unacknowledged PSN when told to retransmit. I/O thread only.
 *
 * <p>The send queue is walked by a cursor: WQEs before it are sent (and wait for their ACK or
 * response), WQEs after it are not started. A WQE gets its PSN range when it starts; a
 * retransmission moves the cursor back into an already started WQE and regenerates its packets
 * from the registered memory, as a hardware RNIC would.
 *
 * <p>State: the requester owns only its ACK-request pacing; the send side's PSNs, cursor, timer
 * and retry counts are the QP's {@link SendQueueState}, shared with its {@link Completer} (whose
 * Javadoc says who writes which field). It reaches the device only through {@link RnicContext}
 * (packet sender, transmit budget, scheduler, counters, keys) and the QP through {@link QpContext}.
 */
final class Requester {
    /** Unacknowledged PSNs the requester allows (rxe allows 128). */
    static final int WINDOW = 128;
    /** A multi-packet message asks for an ACK at least this often (rxe: every 64 packets). */
    static final int ACK_REQUEST_INTERVAL = 64;

    private final RnicContext ctx;
    private final QpContext qp;
    private final SendQueueState s;
    private final Completer completer;
    /** Packets of the current multi-packet message since the last one that asked for an ACK. */
    private int packetsSinceAckRequest;

    Requester(RnicContext ctx, QpContext qp, SendQueueState s, Completer completer) {
        this.ctx = ctx;
        this.qp = qp;
        this.s = s;
        this.completer = completer;
    }

    void reset(int sqPsn) {
        s.reset(sqPsn);
        packetsSinceAckRequest = 0;
    }

    int nextPsn() {
        return s.nextPsn;
    }

    /** Sends what the window, max_rd_atomic and fences allow. */
    void doWork(long nowNs) {
        QpState state = qp.state;
        if (state == QpState.ERR) {
            flush();
            return;
        }
        if (state != QpState.RTS && state != QpState.SQD) {
            return;
        }
        if (s.rnrWaiting) {
            if (nowNs - s.rnrResumeNs < 0) {
                return;
            }
            s.rnrWaiting = false;
            ctx.events.rnrTimerExpired(qp.qpn);
            ctx.events.retransmission(qp.qpn, s.cursorPsn, RetransmitCause.RNR_NAK,
                qp.rnrRetry == 7 ? -1 : s.rnrRetriesLeft);
        }
        WorkQueueRing<SendWqe> sq = qp.sq;
        while (s.cursor < sq.tail()) {
            SendWqe w = sq.at(s.cursor);
            if (!w.started && !start(w, state)) {
                break;
            }
            if (qp.state == QpState.ERR) {
                return;
            }
            if (!transmit(w)) {
                break;
            }
            if (qp.type != QpType.RC) {
                // UC and UD are unacknowledged: a WQE is complete once its last packet is sent (IBTA 9.8).
                if (w.isLocal() && w.status != WcStatus.SUCCESS) {
                    completer.fail(w, w.status);
                    return;
                }
                completer.complete(w, w.isLocal() ? w.status : WcStatus.SUCCESS);
                s.cursor = sq.head();
                continue;
            }
            s.cursor++;
            if (s.cursor < sq.tail() && sq.at(s.cursor).started) {
                s.cursorPsn = s.firstUnackedPsn(sq.at(s.cursor)); // still going back N
            }
        }
        if (qp.type == QpType.RC) {
            completer.retireCompleted(nowNs); // a local operation may be complete already
        }
        if (s.hasOutstanding() && !s.timerArmed) {
            s.armTimer(nowNs);
        }
    }

    /** Gives {@code w} its PSN range, or returns false when it must wait. */
    private boolean start(SendWqe w, QpState state) {
        if (state == QpState.SQD) {
            return false; // SQD: finish messages in progress, start no new ones (IBTA 10.3.1).
        }
        boolean readAtomic = w.isReadOrAtomic();
        if (readAtomic && s.outstandingReadAtomic >= Math.max(1, qp.maxRdAtomic)) {
            return false; // IBTA 9.5: at most max_rd_atomic RDMA READ / atomic requests outstanding.
        }
        if (w.fence && s.outstandingReadAtomic > 0) {
            return false; // IBV_SEND_FENCE: wait for earlier READs and atomics to complete.
        }
        if (qp.type == QpType.RC && Psn.diff(s.nextPsn, Psn.next(s.ackedPsn)) >= WINDOW) {
            return false;
        }
        if (!w.isInline && !w.sg.regionsValid(ctx.keys)) {
            completer.fail(w, WcStatus.LOC_PROT_ERR);
            return false;
        }
        int packets = w.packetCount(qp.mtu);
        if (w.isLocal()) {
            // Executed when reached, in order; it completes once everything before it has.
            w.status = LocalOperations.execute(qp, w, ctx.keys);
            w.responseDone = true;
        }
        w.started = true;
        w.firstPsn = s.nextPsn;
        w.lastPsn = Psn.add(s.nextPsn, packets - 1);
        s.nextPsn = Psn.add(s.nextPsn, packets);
        s.cursorPsn = w.firstPsn;
        if (readAtomic) {
            s.outstandingReadAtomic++;
        }
        if (w.opcode == WrOpcode.SEND || w.opcode == WrOpcode.SEND_WITH_IMM || w.opcode == WrOpcode.SEND_WITH_INV) {
            ctx.counters.increment(Counter.RDMA_SENDS);
        }
        return true;
    }

    /** Transmits the s.cursor WQE from {@link #cursorPsn}; false when the window stopped it or the WQE failed. */
    private boolean transmit(SendWqe w) {
        PacketSender out = ctx.sender;
        while (Psn.compare(s.cursorPsn, w.lastPsn) <= 0) {
            if (qp.type == QpType.RC && Psn.diff(s.cursorPsn, Psn.next(s.ackedPsn)) >= WINDOW) {
                return false;
            }
            if (s.needsBudget(s.cursorPsn) && !ctx.budget.mayTransmit(qp)) {
                return false; // uncharged PSNs wait for the device's budget; the ACK that frees it reschedules
            }
            int index = Psn.diff(s.cursorPsn, w.firstPsn);
            long offset = (long) index * qp.mtu;
            switch (w.opcode) {
                case RDMA_READ -> {
                    // One request covers every response PSN from here on (IBTA 9.7.4.1.4).
                    RocePacket p = out.begin(qp, Opcode.RC_RDMA_READ_REQUEST, s.cursorPsn, 0);
                    p.bth().ackRequest(true);
                    p.reth().virtualAddress(w.remoteAddress + offset).rKey(w.rkey).dmaLength(w.length - offset);
                    out.send(qp);
                    noteTransmitted(s.cursorPsn, w.lastPsn); // the request holds all its response PSNs
                    s.cursorPsn = Psn.next(w.lastPsn);
                    return true;
                }
                case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                    boolean cas = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP;
                    RocePacket p = out.begin(qp, cas ? Opcode.RC_COMPARE_SWAP : Opcode.RC_FETCH_ADD, s.cursorPsn, 0);
                    p.bth().ackRequest(true);
                    p.atomicEth().virtualAddress(w.remoteAddress).rKey(w.rkey)
                        .swapAddData(cas ? w.swap : w.compareAdd).compareData(cas ? w.compareAdd : 0);
                    out.send(qp);
                    noteTransmitted(s.cursorPsn, s.cursorPsn);
                    s.cursorPsn = Psn.next(s.cursorPsn);
                    return true;
                }
                default -> {
                    if (!w.isInline && !w.sg.regionsValid(ctx.keys)) {
                        // Every packet checks its lkeys again (as rxe's copy_data): the buffer may have
                        // been deregistered since the WQE started, before a later or a resent packet.
                        completer.fail(w, WcStatus.LOC_PROT_ERR);
                        return false;
                    }
                    sendSegment(out, w, index, offset);
                }
            }
            s.cursorPsn = Psn.next(s.cursorPsn);
        }
        return true;
    }

    /** Counts a packet at {@code psn} as a retransmission when it was sent before; it used PSNs up to {@code lastPsn}. */
    private void noteTransmitted(int psn, int lastPsn) {
        if (Psn.compare(psn, s.highestSentPsn) <= 0) {
            ctx.counters.increment(Counter.RETRANSMITTED_PKTS);
        }
        if (Psn.compare(lastPsn, s.highestSentPsn) > 0) {
            s.highestSentPsn = lastPsn;
        }
        s.charge(lastPsn);
    }

    /**
     * One SEND or RDMA WRITE packet: FIRST/MIDDLE/LAST/ONLY by position (IBTA 9.7.4.1.2); on UC the
     * same opcodes in the UC range, on UD a SEND ONLY with a DETH (IBTA 9.8.3).
     */
    private void sendSegment(PacketSender out, SendWqe w, int index, long offset) {
        int payload = (int) Math.min(qp.mtu, w.length - offset);
        boolean first = index == 0;
        boolean last = s.cursorPsn == w.lastPsn;
        boolean write = w.opcode == WrOpcode.RDMA_WRITE || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
        boolean imm = w.opcode.hasImmediate() && last;
        RocePacket p;
        if (qp.type == QpType.UD) {
            p = out.begin(w.remoteQpn, imm ? Opcode.UD_SEND_ONLY_WITH_IMMEDIATE : Opcode.UD_SEND_ONLY, s.cursorPsn, payload);
            // A Q_Key with the high bit set means "use the QP's own Q_Key" (IBTA 10.2.4, C10-15).
            p.deth().qKey(w.remoteQkey < 0 ? qp.qkey : w.remoteQkey).sourceQp(qp.qpn);
        } else {
            int opcode = write ? writeOpcode(first, last, imm) : sendOpcode(first, last, imm,
                w.opcode == WrOpcode.SEND_WITH_INV);
            p = out.begin(qp, qp.type == QpType.UC ? opcode | TransportType.UC.opcodePrefix() : opcode, s.cursorPsn, payload);
        }
        boolean ackRequest = qp.type == QpType.RC && (last || ++packetsSinceAckRequest >= ACK_REQUEST_INTERVAL);
        if (ackRequest) {
            packetsSinceAckRequest = 0;
        }
        p.bth().ackRequest(ackRequest).solicitedEvent(last && w.solicited);
        if (write && first) {
            p.reth().virtualAddress(w.remoteAddress).rKey(w.rkey).dmaLength(w.length);
        }
        if (imm) {
            p.immDt().immediateData(w.immData);
        }
        if (p.info().hasInvalidate()) {
            p.ieth().rKey(w.invalidateRkey);
        }
        if (payload > 0) {
            if (w.isInline) {
                out.buffer().putBytes(p.payloadOffset(), w.inlineView, (int) offset, payload);
            } else {
                w.sg.gather(offset, out.buffer(), p.payloadOffset(), payload);
            }
        }
        if (qp.type == QpType.UD) {
            out.send(w.ah.sourceGid(), w.ah.destGid(), w.ah.udpPort());
        } else {
            out.send(qp);
        }
        noteTransmitted(s.cursorPsn, s.cursorPsn);
    }

    private static int sendOpcode(boolean first, boolean last, boolean imm, boolean invalidate) {
        if (first && last) {
            return invalidate ? Opcode.RC_SEND_ONLY_WITH_INVALIDATE
                : imm ? Opcode.RC_SEND_ONLY_WITH_IMMEDIATE : Opcode.RC_SEND_ONLY;
        }
        if (first) {
            return Opcode.RC_SEND_FIRST;
        }
        if (last) {
            return invalidate ? Opcode.RC_SEND_LAST_WITH_INVALIDATE
                : imm ? Opcode.RC_SEND_LAST_WITH_IMMEDIATE : Opcode.RC_SEND_LAST;
        }
        return Opcode.RC_SEND_MIDDLE;
    }

    private static int writeOpcode(boolean first, boolean last, boolean imm) {
        if (first && last) {
            return imm ? Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : Opcode.RC_RDMA_WRITE_ONLY;
        }
        if (first) {
            return Opcode.RC_RDMA_WRITE_FIRST;
        }
        if (last) {
            return imm ? Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : Opcode.RC_RDMA_WRITE_LAST;
        }
        return Opcode.RC_RDMA_WRITE_MIDDLE;
    }

    // ---------------------------------------------------------------- retransmission

    /** The local ACK timer: on expiry, retransmit from the oldest unacknowledged PSN or give up. */
    void onTimer(long nowNs) {
        if (s.rnrWaiting && nowNs - s.rnrResumeNs >= 0) {
            ctx.scheduler.schedule(qp);
        }
        if (!s.timerArmed || nowNs - s.retryDeadlineNs < 0) {
            return;
        }
        if (!s.hasOutstanding() || s.blockedOnBudget()) {
            s.timerArmed = false;
            return;
        }
        ctx.events.ackTimerExpired(qp.qpn, s.retriesLeft);
        if (!completer.consumeRetry()) {
            return;
        }
        s.goingBack = false; // a timeout always goes back, whatever was asked before
        int from = s.firstUnackedPsn(qp.sq.at(qp.sq.head()));
        s.goBackTo(from);
        ctx.events.retransmission(qp.qpn, from, RetransmitCause.TIMEOUT, s.retriesLeft);
        s.armTimer(nowNs);
        ctx.scheduler.schedule(qp);
    }

    /** Completes every WQE with WR_FLUSH_ERR (the QP is in ERR). */
    void flush() {
        WorkQueueRing<SendWqe> sq = qp.sq;
        while (!sq.isEmpty()) {
            completer.complete(sq.at(sq.head()), WcStatus.WR_FLUSH_ERR);
        }
        s.cursor = sq.head();
        s.timerArmed = false;
        s.rnrWaiting = false;
        s.releaseBudget();
    }
}
