package io.jroce.rnic.cm;

import org.agrona.DirectBuffer;

import io.jroce.stack.mad.CmDrepFlyweight;
import io.jroce.stack.mad.CmDreqFlyweight;
import io.jroce.stack.mad.CmTransactionId;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;

/**
 * Connection release (IBTA Vol. 1 12.6.10, 12.6.11, 12.9.6): DREQ and DREP, sent and received, and the
 * TimeWait every RC connection ends in, as the kernel's {@code cm.c} runs them. The {@link ConnectionManager}
 * hands it the consumer's disconnects and the DREQ and DREP MADs, and sends connections it ends otherwise
 * (REJ, destroy, a retry expiry) through {@link #enterTimeWait}. I/O thread.
 */
final class CmConnectionRelease {
    private static final long NS_PER_MS = 1_000_000L;

    private final CmConnectionTable table;
    private final CmTimerQueue timers;
    private final CmMessageSender sender;
    private final Counters counters;
    private final int hiTid;
    private final CmMessageWriter writer = new CmMessageWriter();
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final CmDreqFlyweight dreq = new CmDreqFlyweight();
    private final CmDrepFlyweight drep = new CmDrepFlyweight();

    /** @param hiTid the manager's MAD agent number, the high half of its TIDs */
    CmConnectionRelease(CmConnectionTable table, CmTimerQueue timers, CmMessageSender sender, Counters counters,
                        int hiTid) {
        this.table = table;
        this.timers = timers;
        this.sender = sender;
        this.counters = counters;
        this.hiTid = hiTid;
    }

    /** See {@link ConnectionManager#disconnect}. */
    void disconnect(CmConnection c, long now) {
        switch (c.state) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> sendDreq(c, now);
            case DREQ_RCVD -> {
                writer.drep(c.tid, c.localCommId, c.remoteCommId);
                send(c);
                enterTimeWait(c, now);
            }
            default -> throw new IllegalStateException(c + ": nothing to disconnect");
        }
    }

    /** cm_send_dreq_locked: a DREQ with a TID formed of this side's own ID (the active side's REQ TID again). */
    void sendDreq(CmConnection c, long nowNs) {
        writer.dreq(c, CmTransactionId.form(hiTid, c.localCommId));
        writer.copyTo(c.pending);
        c.state = CmState.DREQ_SENT;
        sender.sendPending(c, nowNs);
    }

    /**
     * cm_destroy_id of an established connection: a single DREQ, not retransmitted (nobody waits for
     * the DREP), and TimeWait.
     */
    void sendDreqOnce(CmConnection c, long nowNs) {
        writer.dreq(c, CmTransactionId.form(hiTid, c.localCommId));
        send(c);
        enterTimeWait(c, nowNs);
    }

    void enterTimeWait(CmConnection c, long nowNs) {
        // cm_enter_timewait removes the peer's QP from the stale-connection table (cm_remove_remote): a
        // new connection of that QP is no longer stale. jroce keeps the comm ID key for TimeWait, to answer
        // a repeated REQ with REJ 10 (cm_dup_req_handler's TIMEWAIT case).
        table.removeRemoteQp(c);
        c.state = CmState.TIMEWAIT;
        timers.arm(c, CmConnection.Timer.TIMEWAIT, nowNs + CmTimeouts.timeWaitMs(CmTimeouts.PACKET_LIFE_TIME) * NS_PER_MS);
    }

    void onDreq(DirectBuffer mad, byte[] peerGid, byte[] localGid, long nowNs) {
        dreq.wrap(mad, 0);
        long tid = header.wrap(mad, 0).transactionId();
        CmConnection c = table.byLocalId(dreq.remoteCommId());
        if (c == null || c.remoteCommId != dreq.localCommId()) {
            // cm_issue_drep: whoever disconnects a connection this side does not know gets its DREP.
            writer.drep(tid, dreq.remoteCommId(), dreq.localCommId());
            sender.send(writer.buffer(), localGid, peerGid);
            return;
        }
        if (dreq.remoteQpn() != c.localQpn) {
            counters.increment(Counter.CM_DROP_UNEXPECTED); // cm_dreq_handler: not for this side's QP
            return;
        }
        switch (c.state) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> {
                timers.stop(c);
                c.tid = tid; // the DREP echoes the DREQ's TID
                c.state = CmState.DREQ_RCVD;
                c.events.onDisconnected(c);
            }
            case DREQ_SENT -> {
                // Both sides disconnected at once (IBTA 12.9.6: DREQ received in DREQ Sent, send DREP and
                // enter TimeWait). The consumer already called disconnect and will not again, so the DREP
                // goes at once; the kernel's DREQ_RCVD would wait for rdma_disconnect or rdma_destroy_id,
                // and its cm_drep_handler takes our DREP in DREQ_RCVD alike.
                writer.drep(tid, c.localCommId, c.remoteCommId);
                send(c);
                enterTimeWait(c, nowNs);
                c.events.onDisconnected(c);
            }
            case TIMEWAIT -> {
                writer.drep(tid, c.localCommId, c.remoteCommId);
                send(c);
            }
            default -> counters.increment(Counter.CM_DROP_UNEXPECTED); // DREQ_RCVD: the consumer's DREP answers
        }
    }

    void onDrep(DirectBuffer mad, long nowNs) {
        drep.wrap(mad, 0);
        CmConnection c = table.match(drep.remoteCommId(), drep.localCommId());
        if (c == null) {
            return;
        }
        if (c.state == CmState.DREQ_RCVD) {
            // cm_drep_handler takes a DREP in DREQ_RCVD too (the peer's answer to a DREQ that crossed
            // ours); the CMA reports no second DISCONNECTED (cma_comp_exch fails).
            enterTimeWait(c, nowNs);
            return;
        }
        if (c.state != CmState.DREQ_SENT) {
            counters.increment(Counter.CM_DROP_UNEXPECTED);
            return;
        }
        enterTimeWait(c, nowNs);
        c.events.onDisconnected(c);
    }

    /** Sends the message the writer built last to the connection's peer, once. */
    private void send(CmConnection c) {
        sender.send(c, writer.buffer());
    }
}
