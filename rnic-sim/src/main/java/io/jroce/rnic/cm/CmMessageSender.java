package io.jroce.rnic.cm;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.core.Gsi;
import io.jroce.stack.mad.MadHeaderFlyweight;

/**
 * Where every CM message of a device leaves: one MAD to the peer's QP1 on the peers' RoCE port,
 * counted by attribute; and a connection's pending message (REQ, REP, DREQ, SIDR_REQ), sent with
 * its retransmission armed. I/O thread.
 */
final class CmMessageSender {
    private final Gsi gsi;
    private final CmMessageCounts messageCounts;
    private final CmTimerQueue timers;
    /** The UDP port every CM message of this device goes to: the peers' RoCE port, never a MAD's source port. */
    private final int peerPort;
    /** The header of a message being sent (not a handler's received header: it may read it after answering). */
    private final MadHeaderFlyweight sentHeader = new MadHeaderFlyweight();
    private final UnsafeBuffer pendingView = new UnsafeBuffer(0, 0);

    CmMessageSender(Gsi gsi, CmMessageCounts messageCounts, CmTimerQueue timers, int peerPort) {
        this.gsi = gsi;
        this.messageCounts = messageCounts;
        this.timers = timers;
        this.peerPort = peerPort;
    }

    /** Sends {@code mad} to the connection's peer, once. */
    void send(CmConnection c, DirectBuffer mad) {
        transmit(mad, c.localGid, c.peerGid, c.peerPort);
    }

    /** Sends {@code mad} from {@code localGid} to {@code peerGid}, for a message no connection sends. */
    void send(DirectBuffer mad, byte[] localGid, byte[] peerGid) {
        transmit(mad, localGid, peerGid, peerPort);
    }

    /** Sends the connection's pending message and arms its retransmission. */
    void sendPending(CmConnection c, long nowNs) {
        c.retriesLeft = c.maxRetries;
        timers.arm(c, CmConnection.Timer.RETRANSMIT, nowNs + c.intervalNs);
        sendPendingAgain(c);
    }

    void sendPendingAgain(CmConnection c) {
        pendingView.wrap(c.pending);
        transmit(pendingView, c.localGid, c.peerGid, c.peerPort);
    }

    /** Every CM message leaves here: one MAD to the peer's QP1, counted by attribute. */
    private void transmit(DirectBuffer mad, byte[] localGid, byte[] peerGid, int port) {
        messageCounts.sent(sentHeader.wrap(mad, 0).attributeId());
        gsi.send(mad, 0, localGid, peerGid, port);
    }
}
