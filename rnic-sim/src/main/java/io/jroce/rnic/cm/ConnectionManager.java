package io.jroce.rnic.cm;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.rnic.core.CommEstablishedListener;
import io.jroce.rnic.core.Gsi;
import io.jroce.rnic.core.MadHandler;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmTransactionId;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;

/**
 * A device's Communication Manager for RC connections and UD service ID resolution (SIDR, IBTA Vol. 1
 * chapter 12 and 12.11), behaving on the wire
 * as the Linux kernel's {@code cm.c} does under RDMA CM. It is the handler of the device's GSI:
 * {@link #onMad} takes every CM MAD, {@link #onTimer} expires its retransmission and TimeWait timers.
 * The consumer's methods ({@link #listen}, {@link #connect}, {@link #accept}, {@link #ready},
 * {@link #reject}, {@link #disconnect}, {@link #destroy}) run on the I/O thread: from an event, or a task
 * given to {@link Gsi#execute}. It also hears of the device's QPs taking their first packet (Communication
 * Established), which establishes a passive connection whose RTU was lost. Malformed and unexpected MADs
 * are dropped and counted ({@code cm_*}), never thrown.
 */
public final class ConnectionManager implements MadHandler, CommEstablishedListener {
    /** RDMA CM's TCP port space (cma.c {@code RDMA_PS_TCP}): service ID = {@code portSpace << 16 | port}. */
    public static final int PORT_SPACE_TCP = 0x0106;
    /** RDMA CM's UDP port space ({@code RDMA_PS_UDP}): UD QPs, resolved by SIDR. */
    public static final int PORT_SPACE_UDP = 0x0111;
    private static final long NS_PER_MS = 1_000_000L;
    private static final byte[] NO_PRIVATE_DATA = new byte[0];
    /** What a destroyed connection reports: nothing (the kernel calls no handler of a destroyed ID). */
    private static final CmEvents NO_EVENTS = new CmEvents() {
    };

    private final Gsi gsi;
    private final Counters counters;
    private final long caGuid;
    private final int hiTid;
    /** The UDP port every CM message of this device goes to: the peers' RoCE port, never a MAD's source port. */
    private final int peerPort;
    private final CmTimerQueue timers = new CmTimerQueue();
    private final CmConnectionTable table;
    private final CmMessageSender sender;
    private final CmSidr sidr;
    private final CmConnectionRelease release;
    private final CmEstablishment establishment;
    private final CmMessageWriter writer = new CmMessageWriter();
    private final CmMessageCounts messageCounts;
    /** The header of a received message. */
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    /** {@link #onTimer}'s arguments, made once: it runs every tick, and a method reference is a new object each time. */
    private final Predicate<CmConnection> live;
    private final CmTimerQueue.Expiry expiry = this::expire;

    /**
     * Creates the manager of {@code gsi}'s device and makes it the GSI's handler.
     *
     * @param random the source of the CA GUID, the TID's high half and the local comm IDs (a seeded
     *               one makes a test's IDs repeatable)
     * @param gsi the GSI (QP1) of the device the manager serves
     */
    public ConnectionManager(Gsi gsi, Random random) {
        this(gsi, random, Gsi.ROCE_PORT);
    }

    /**
     * Creates the manager of {@code gsi}'s device, sending every CM message to {@code peerPort}.
     * A CM message goes to the peer's RoCE port (4791 on a real network), not to the port its MAD
     * came from: rxe sends from 0xC000 + a hash of the QPN, where nothing listens. Tests that put
     * several jroce devices on one host give them all one free port P, their own and their peers'.
     *
     * @param gsi the GSI (QP1) of the device the manager serves
     * @param random the source of the CA GUID, the TID's high half and the local comm IDs
     * @param peerPort the UDP port every CM message is sent to, 1..65535
     */
    public ConnectionManager(Gsi gsi, Random random, int peerPort) {
        if (peerPort < 1 || peerPort > 65535) {
            throw new IllegalArgumentException("a peer's UDP port is 1..65535, got " + peerPort);
        }
        this.peerPort = peerPort;
        this.gsi = gsi;
        this.counters = gsi.counters();
        this.messageCounts = new CmMessageCounts(counters);
        // Unique per device: the peer's tables key our connections on (comm ID, CA GUID).
        this.caGuid = random.nextLong() | 1L;
        // The kernel's MAD agent number; fixed for this manager, as for the kernel's CM agent.
        this.hiTid = 1 + random.nextInt(0xFFFF);
        this.table = new CmConnectionTable(random, timers, counters);
        this.live = table::holds;
        this.sender = new CmMessageSender(gsi, messageCounts, timers, peerPort);
        this.sidr = new CmSidr(table, sender, counters, hiTid, peerPort);
        this.release = new CmConnectionRelease(table, timers, sender, counters, hiTid);
        this.establishment = new CmEstablishment(gsi::nowNs, table, timers, sender, release, counters, peerPort);
        gsi.handler(this);
        gsi.commEstablishedListener(this);
    }

    /**
     * The service ID of a UDP port in RDMA CM's port space.
     *
     * @param port the UDP port
     * @return the service ID
     */
    public static long udpServiceId(int port) {
        return ((long) PORT_SPACE_UDP << 16) | (port & 0xFFFF);
    }

    /**
     * The service ID of a TCP port in RDMA CM's port space.
     *
     * @param port the TCP port
     * @return the service ID
     */
    public static long tcpServiceId(int port) {
        return ((long) PORT_SPACE_TCP << 16) | (port & 0xFFFF);
    }

    /**
     * This device's CA GUID, as its REQs and REPs carry it.
     *
     * @return the GUID
     */
    public long caGuid() {
        return caGuid;
    }

    /**
     * The connections the manager holds, TimeWait included. I/O thread.
     *
     * @return how many connections it holds
     */
    public int connections() {
        return table.size();
    }

    /**
     * Takes the REQs for {@code serviceId}, reporting them to {@code events}. I/O thread.
     *
     * @param serviceId the service ID
     * @param events where the REQs are reported
     */
    public void listen(long serviceId, CmEvents events) {
        table.listen(serviceId, events);
    }

    /**
     * Stops taking REQs for {@code serviceId} (they get REJ invalid service ID). I/O thread.
     *
     * @param serviceId the service ID
     */
    public void stopListening(long serviceId) {
        table.stopListening(serviceId);
    }

    /**
     * Sends a REQ (IBTA 12.6.5) with the fields the CMA sets, and retransmits it every
     * {@link CmTimeouts#reqIntervalMs} until a REP, REJ or MRA, {@link CmTimeouts#MAX_CM_RETRIES} times,
     * then reports {@link CmEvents#onUnreachable}. I/O thread.
     *
     * @param p what the REQ carries
     * @param events where the connection's events go
     * @return the connection, in REQ_SENT
     */
    public CmConnection connect(ConnectParams p, CmEvents events) {
        if (p.privateData().length > ConnectParams.MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("a REQ carries at most " + ConnectParams.MAX_PRIVATE_DATA
                + " bytes of private data, got " + p.privateData().length);
        }
        CmConnection c = new CmConnection(true, table.newLocalCommId(), p.serviceId(), p.localGid(), p.peerGid(),
            peerPort, events);
        c.localQpn = p.localQpn() & 0xFFFFFF;
        c.tid = CmTransactionId.form(hiTid, c.localCommId);
        c.intervalNs = NS_PER_MS
            * CmTimeouts.reqIntervalMs(p.packetLifeTime(), CmTimeouts.CM_RESPONSE_TIMEOUT);
        c.maxRetries = CmTimeouts.MAX_CM_RETRIES;
        writer.req(c, p, caGuid);
        writer.copyTo(c.pending);
        table.putLocal(c);
        c.state = CmState.REQ_SENT;
        sender.sendPending(c, gsi.nowNs());
        return c;
    }

    /**
     * Active UD: sends a SIDR_REQ (IBTA 12.11.1) and retransmits it every {@link CmTimeouts#sidrIntervalMs}
     * until the SIDR_REP, {@link CmTimeouts#MAX_CM_RETRIES} times, then reports {@link CmEvents#onUnreachable}
     * ({@code ib_send_cm_sidr_req} with the CMA's values). The request ID is the connection's local comm ID,
     * the TID formed from it as for a REQ. I/O thread.
     *
     * @param p what the SIDR_REQ carries
     * @param events where the connection's events go
     * @return the request's connection
     */
    public CmConnection sidrRequest(SidrParams p, CmEvents events) {
        return sidr.request(p, events, gsi.nowNs());
    }

    /**
     * Passive UD: answers a reported SIDR_REQ with a SIDR_REP of status 0 naming the UD QP {@code qpn}
     * and its Q_Key ({@code ib_send_cm_sidr_rep}); the request is done. I/O thread.
     *
     * @param c a connection reported to the consumer
     * @param qpn the UD QP that serves the service
     * @param qKey its Q_Key
     * @param privateData what the message carries
     */
    public void sidrAccept(CmConnection c, int qpn, int qKey, byte[] privateData) {
        sidr.accept(c, qpn, qKey, privateData);
    }

    /**
     * Passive UD: answers a reported SIDR_REQ with a SIDR_REP of status 2, rejected ({@code rdma_reject}). I/O thread.
     *
     * @param c a connection reported to the consumer
     * @param privateData what the message carries
     */
    public void sidrReject(CmConnection c, byte[] privateData) {
        sidr.reject(c, privateData);
    }

    /**
     * Passive: answers the REQ with a REP (IBTA 12.6.8), retransmitted as the REQ asked, until the RTU. I/O thread.
     *
     * @param c a connection reported to the consumer
     * @param p what the REP carries
     */
    public void accept(CmConnection c, AcceptParams p) {
        expect(c, CmState.REQ_RCVD, CmState.MRA_REQ_SENT);
        if (p.privateData().length > AcceptParams.MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("a REP carries at most " + AcceptParams.MAX_PRIVATE_DATA
                + " bytes of private data, got " + p.privateData().length);
        }
        c.localQpn = p.localQpn() & 0xFFFFFF;
        writer.rep(c, p, caGuid);
        writer.copyTo(c.pending);
        c.state = CmState.REP_SENT;
        table.putLocalQpn(c);
        sender.sendPending(c, gsi.nowNs());
    }

    /**
     * Passive: refuses a REQ the consumer could not take before reporting it (the CMA's own checks:
     * its header, the addresses, no ID listening) with REJ 28 and local comm ID 0, as the kernel's
     * {@code cm_destroy_id} sends it from REQ_RCVD when {@code cma_ib_req_handler} fails (the CMA arms its
     * MRA only after reporting a request, so the state is still REQ_RCVD). The connection is gone. I/O thread.
     *
     * @param c a connection reported to the consumer
     */
    public void refuse(CmConnection c) {
        expect(c, CmState.REQ_RCVD, CmState.MRA_REQ_SENT);
        writer.rej(c.tid, 0, c.remoteCommId, CmRejFlyweight.REJECTED_REQ, CmRejFlyweight.REASON_CONSUMER_DEFINED,
            NO_PRIVATE_DATA);
        send(c);
        table.forget(c);
        c.state = CmState.IDLE;
    }

    /**
     * Active: answers the reported REP with an RTU (IBTA 12.6.9); the connection is established. I/O thread.
     *
     * @param c a connection reported to the consumer
     */
    public void ready(CmConnection c) {
        expect(c, CmState.REP_RCVD, CmState.MRA_REP_SENT);
        c.state = CmState.ESTABLISHED;
        writer.rtu(c);
        send(c);
        c.events.onEstablished(c);
    }

    /**
     * Rejects a reported REQ (passive) or REP (active) with REJ reason 28, consumer defined, and
     * forgets the connection. I/O thread.
     *
     * @param c a connection reported to the consumer
     * @param privateData what the message carries
     */
    public void reject(CmConnection c, byte[] privateData) {
        expect(c, CmState.REQ_RCVD, CmState.MRA_REQ_SENT, CmState.REP_RCVD, CmState.MRA_REP_SENT);
        if (privateData.length > CmRejFlyweight.PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("a REJ carries at most " + CmRejFlyweight.PRIVATE_DATA_LENGTH
                + " bytes of private data, got " + privateData.length);
        }
        // The CMA armed a delayed MRA, so the kernel's state is MRA_REQ_SENT and the REJ carries the
        // local comm ID (cm_format_rej).
        int rejected = c.active ? CmRejFlyweight.REJECTED_REP : CmRejFlyweight.REJECTED_REQ;
        writer.rej(c.tid, c.localCommId, c.remoteCommId, rejected, CmRejFlyweight.REASON_CONSUMER_DEFINED, privateData);
        send(c);
        table.forget(c);
        c.state = CmState.IDLE;
    }

    /**
     * Established: sends a DREQ (IBTA 12.6.10), retransmitted like the REQ or REP, until the DREP.
     * After a DREQ was received: sends the DREP (12.6.11). Either way the connection then goes
     * through TimeWait. I/O thread.
     *
     * @param c a connection reported to the consumer
     */
    public void disconnect(CmConnection c) {
        release.disconnect(c, gsi.nowNs());
    }

    /**
     * The consumer is done with {@code c} (the kernel's {@code ib_destroy_cm_id}, which {@code rdma_destroy_id}
     * calls): it hears of it no more, and the peer is told as {@code cm_destroy_id} tells it. A REQ still
     * unanswered is withdrawn with REJ 4 (timeout) carrying this CA's GUID as additional reject information,
     * by which the peer finds its connection ({@code cm_acquire_rejected_id}); a connection being set up
     * gets REJ 28; an established one a single DREQ and TimeWait (cm_destroy_id sends the DREQ, then cancels
     * its retransmission: nobody waits for the DREP), as does one whose DREQ is out; one whose peer
     * disconnected gets its DREP. Nothing is sent for a connection in TimeWait or gone. I/O thread.
     *
     * @param c a connection reported to the consumer
     */
    public void destroy(CmConnection c) {
        c.events = NO_EVENTS;
        long now = gsi.nowNs();
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD -> {
                writer.rej(c.tid, c.localCommId, c.remoteCommId, CmRejFlyweight.REJECTED_OTHER,
                    CmRejFlyweight.REASON_TIMEOUT, guidBytes(caGuid), NO_PRIVATE_DATA);
                send(c);
                table.forget(c);
                c.state = CmState.IDLE;
            }
            case REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT -> reject(c, NO_PRIVATE_DATA);
            case REP_SENT, MRA_REP_RCVD -> {
                // cm_send_rej_locked: after the REP, a REJ sends the connection through TimeWait.
                writer.rej(c.tid, c.localCommId, c.remoteCommId, CmRejFlyweight.REJECTED_OTHER,
                    CmRejFlyweight.REASON_CONSUMER_DEFINED, NO_PRIVATE_DATA);
                send(c);
                release.enterTimeWait(c, now);
            }
            case ESTABLISHED -> release.sendDreqOnce(c, now);
            case DREQ_SENT -> release.enterTimeWait(c, now);
            case DREQ_RCVD -> disconnect(c);
            // cm_destroy_id: a SIDR_REQ out is cancelled silently; one received unanswered gets status 2.
            case SIDR_REQ_SENT -> {
                table.forget(c);
                c.state = CmState.IDLE;
            }
            case SIDR_REQ_RCVD -> sidrReject(c, NO_PRIVATE_DATA);
            default -> {
                // TIMEWAIT runs out by itself (it still answers the peer's repeats); IDLE is gone.
            }
        }
    }

    /**
     * A QP of this device took its first packet after RTR (IBTA 11.6.3.1): if it is the QP of a passive
     * connection still waiting for its RTU, the peer is evidently up and the connection is established
     * as by the RTU (IBTA 12.6.9; the kernel's {@code ib_cm_notify(IB_EVENT_COMM_EST)}, {@code cm_establish},
     * which the CMA reports as ESTABLISHED). The RTU that may still come is then a repeat. I/O thread.
     */
    @Override
    public void onCommEstablished(int qpn, long nowNs) {
        CmConnection c = table.byLocalQpn(qpn);
        if (c == null || (c.state != CmState.REP_SENT && c.state != CmState.MRA_REP_RCVD)) {
            return;
        }
        establishment.establishPassive(c);
    }

    /**
     * Forgets a reported REQ without answering it, as {@code cm_destroy_id} does when the CMA's
     * consumer refused it with -ENOMEM (a listener's backlog is full, ucma.c): no REJ, "to allow
     * future retries", so the peer's next retransmission of the REQ is a new request. I/O thread.
     *
     * @param c a connection reported to the consumer
     */
    public void dropRequest(CmConnection c) {
        expect(c, CmState.REQ_RCVD, CmState.MRA_REQ_SENT);
        table.forget(c);
        c.state = CmState.IDLE;
    }

    /** Answers go to the peers' RoCE port (see the constructor), so the MAD's source port is not used. */
    @Override
    public void onMad(DirectBuffer mad, byte[] peerGid, int sourcePort, int sourceQp, int pkeyIndex, byte[] localGid,
                      long nowNs) {
        header.wrap(mad, 0);
        if (header.classVersion() != MadHeaderFlyweight.CM_CLASS_VERSION
            || header.method() != MadHeaderFlyweight.METHOD_SEND) {
            counters.increment(Counter.CM_DROP_BAD_MAD);
            return;
        }
        messageCounts.received(header.attributeId());
        switch (header.attributeId()) {
            case MadHeaderFlyweight.ATTR_REQ -> establishment.onReq(mad, peerGid, localGid);
            case MadHeaderFlyweight.ATTR_REP -> establishment.onRep(mad, peerGid, localGid);
            case MadHeaderFlyweight.ATTR_RTU -> establishment.onRtu(mad);
            case MadHeaderFlyweight.ATTR_REJ -> establishment.onRej(mad, nowNs);
            case MadHeaderFlyweight.ATTR_MRA -> establishment.onMra(mad, nowNs);
            case MadHeaderFlyweight.ATTR_DREQ -> release.onDreq(mad, peerGid, localGid, nowNs);
            case MadHeaderFlyweight.ATTR_DREP -> release.onDrep(mad, nowNs);
            case MadHeaderFlyweight.ATTR_SIDR_REQ -> sidr.onSidrReq(mad, peerGid, localGid);
            case MadHeaderFlyweight.ATTR_SIDR_REP -> sidr.onSidrRep(mad, peerGid);
            default -> counters.increment(Counter.CM_DROP_BAD_MAD); // LAP/APR are not handled
        }
    }

    @Override
    public void onTimer(long nowNs) {
        timers.expireDue(nowNs, live, expiry);
    }

    private void expire(CmConnection c, long nowNs) {
        if (c.timer == CmConnection.Timer.TIMEWAIT) {
            timers.stop(c);
            table.forget(c);
            c.state = CmState.IDLE;
            c.events.onTimeWaitExit(c);
            return;
        }
        if (c.retriesLeft > 0) {
            c.retriesLeft--;
            counters.increment(Counter.CM_RETRANSMITS);
            c.deadlineNs = nowNs + c.intervalNs;
            sender.sendPendingAgain(c);
            return;
        }
        // Out of retries (cm_process_send_error): a REQ or REP's connection is gone, a DREQ's goes to TimeWait.
        timers.stop(c);
        switch (c.state) {
            case DREQ_SENT -> {
                release.enterTimeWait(c, nowNs);
                c.events.onDisconnected(c);
            }
            default -> {
                table.forget(c);
                c.state = CmState.IDLE;
                c.events.onUnreachable(c);
            }
        }
    }

    /** Sends the message the writer built last to the connection's peer, once. */
    private void send(CmConnection c) {
        sender.send(c, writer.buffer());
    }

    /** The CA GUID as the kernel puts {@code node_guid} (big-endian) in a REJ 4's ARI. */
    private static byte[] guidBytes(long guid) {
        byte[] b = new byte[Long.BYTES];
        new UnsafeBuffer(b).putLong(0, guid, ByteOrder.BIG_ENDIAN);
        return b;
    }

    static void expect(CmConnection c, CmState... states) {
        for (CmState s : states) {
            if (c.state == s) {
                return;
            }
        }
        throw new IllegalStateException(c + ": expected one of " + List.of(states));
    }
}
