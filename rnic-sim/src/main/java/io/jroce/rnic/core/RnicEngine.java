package io.jroce.rnic.core;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.rnic.events.ProtocolEvents;
import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.stack.wire.TransportType;
import io.jroce.verbs.Gid;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;

/**
 * The RNIC's packet and work dispatcher, confined to the I/O thread: validates each received
 * packet (in the order rxe_recv.c checks, IBTA 9.6 packet header validation) and hands it to the
 * responder or completer of its QP; runs the requesters of QPs that have new work; drives timers.
 */
final class RnicEngine implements RocePacketHandler, QpScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(RnicEngine.class);

    private final IoContext io;
    private final Counters counters;
    private final PacketSender sender;
    private final RnicContext context;
    private final RocePacket rx = new RocePacket();
    private final Int2ObjectHashMap<QpTransport> qps = new Int2ObjectHashMap<>();
    private final ManyToOneConcurrentArrayQueue<QpTransport> runQueue =
        new ManyToOneConcurrentArrayQueue<>(DeviceLimits.MAX_QP);
    private final AtomicBoolean drainPending = new AtomicBoolean();
    private final Runnable drainTask = this::drain;

    private final Gsi gsi;
    private final MulticastGroups multicast = new MulticastGroups();

    RnicEngine(IoContext io, RoceTransport transport, Counters counters, KeyTable keys, List<Gid> gids,
               ProtocolEvents events) {
        this.io = io;
        this.counters = counters;
        this.sender = new PacketSender(transport, counters);
        this.gsi = new Gsi(io, sender, counters, gids);
        this.context = new RnicContext(counters, keys, sender,
            new TransmitBudget(TransmitBudget.DEFAULT_PACKETS, TransmitBudget.DEFAULT_WAKE_QUANTUM, this), this,
            new ResponsePacer(this::requestDrain), events);
    }

    /** The device's QP1, alive as long as the engine. */
    Gsi gsi() {
        return gsi;
    }

    /** The QPs attached to each multicast group. I/O thread. */
    MulticastGroups multicast() {
        return multicast;
    }

    /** The services every engine of this device is built with. */
    RnicContext context() {
        return context;
    }

    /** I/O thread. */
    void register(QpTransport t) {
        qps.put(t.qp.qpn, t);
    }

    /** I/O thread. */
    void unregister(QpTransport t) {
        qps.remove(t.qp.qpn);
        t.responder.sendOwedAcknowledgements(); // a QP destroyed right after its last completion
        context.pacer.remove(t.responder);
        t.sendState.releaseBudget(); // also leaves the budget's queue: nothing schedules this QP again
    }

    /** Schedules a registered QP from inside the engines (budget freed, RNR wait or timeout over). */
    @Override
    public void schedule(QpContext qp) {
        QpTransport t = qps.get(qp.qpn);
        if (t != null && t.qp == qp) {
            schedule(t);
        } else {
            context.budget.remove(qp); // destroyed: a wake it held goes to the next QP (unregister removes it too)
        }
    }

    /** Asks the I/O thread to run {@code qp}'s requester (new work, or a flush). Any thread. */
    void schedule(QpTransport qp) {
        if (qp.scheduled.compareAndSet(false, true)) {
            while (!runQueue.offer(qp)) {
                Thread.onSpinWait(); // bounded by MAX_QP, and each QP is queued at most once
            }
        }
        requestDrain();
    }

    /** Asks the I/O thread for a turn of {@link #drain}, once until it runs. Any thread. */
    private void requestDrain() {
        if (drainPending.compareAndSet(false, true)) {
            io.execute(drainTask);
        }
    }

    private void drain() {
        drainPending.set(false);
        long now = io.nowNs();
        try {
            // Responses first: an ACK queued for coalescing answers a request the application may
            // already have seen complete, and leaves before what it posted since (the invoker mode's
            // transport then holds plain ACKs until its flush, after a polling thread's answer:
            // runtime.AcknowledgementHold). READ
            // responses are not paced by the requesters' budget: a quota per turn (another turn is
            // asked for if responses remain, after the I/O loop has read the network).
            context.pacer.run(ResponsePacer.TURN_QUOTA);
        } catch (RuntimeException e) {
            LOG.error("responses failed", e);
        }
        QpTransport qp;
        while ((qp = runQueue.poll()) != null) {
            qp.scheduled.set(false);
            try {
                if (qp.qp.state == QpState.ERR) {
                    qp.flush();
                } else {
                    qp.requester.doWork(now);
                }
            } catch (RuntimeException e) {
                LOG.error("requester of {} failed", qp, e);
            } finally {
                context.budget.turnTaken(qp.qp); // a woken QP that sent nothing passes its wake on
            }
        }
        sender.flushIfNeeded();
    }

    /** Expires retransmission and RNR timers, and the GSI handler's (the CM's). I/O thread. */
    void onTimer() {
        long now = io.nowNs();
        TimerFloor floor = context.timerFloor;
        if (floor.due(now)) {
            floor.clear();
            for (QpTransport t : qps.values()) {
                QpState state = t.qp.state;
                if (state == QpState.RTS || state == QpState.SQD) {
                    t.requester.onTimer(now);
                }
                t.sendState.noteDeadlines(floor);
            }
        }
        try {
            gsi.onTimer(now);
        } catch (RuntimeException e) {
            LOG.error("the GSI handler's timer failed", e); // the transport's timers must keep running
        }
        sender.flushIfNeeded();
    }

    @Override
    public void onPacket(DirectBuffer buffer, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress) {
        try {
            dispatch(buffer, offset, length, srcAddress, srcPort, dstAddress);
        } catch (RuntimeException e) {
            // A bug must not kill the I/O thread: count the packet as dropped and go on.
            counters.increment(Counter.DROP_INTERNAL_ERROR);
            LOG.error("dropping a packet that raised an exception", e);
        }
        // No flush here: the transport flushes what its handler sent when the receive batch ends.
    }

    private void dispatch(DirectBuffer buffer, int offset, int length, byte[] src, int srcPort, byte[] dst) {
        ParseResult result = rx.wrap(buffer, offset, length);
        if (result != ParseResult.OK) {
            counters.increment(switch (result) {
                case UNKNOWN_OPCODE -> Counter.DROP_UNKNOWN_OPCODE;
                case BAD_TRANSPORT_VERSION -> Counter.DROP_BAD_TVER;
                case BAD_PAD -> Counter.DROP_BAD_PAD;
                default -> Counter.DROP_TRUNCATED;
            });
            return;
        }
        BthFlyweight bth = rx.bth();
        if ((bth.partitionKey() & 0x7FFF) != 0x7FFF) {
            counters.increment(Counter.DROP_BAD_PKEY); // only the default partition exists: any other P_Key is dropped
            return;
        }
        if (bth.destQp() == Gsi.QPN) {
            gsi.onPacket(rx, src, srcPort, dst, io.nowNs()); // QP1 is no application QP: the GSI checks its own
            return;
        }
        if (bth.destQp() == DeviceLimits.MULTICAST_QPN) {
            deliverMulticast(src, dst);
            return;
        }
        QpTransport t = qps.get(bth.destQp());
        if (t == null) {
            counters.increment(Counter.DROP_UNKNOWN_QPN);
            return;
        }
        QpContext qp = t.qp;
        OpcodeInfo info = rx.info();
        if (info.transport() != transportOf(qp.type)) {
            counters.increment(Counter.DROP_WRONG_QP_TYPE); // the opcode's transport must be the QP's, e.g. no UC opcode for an RC QP
            return;
        }
        if (qp.type != QpType.UD
            && (qp.av == null || !Arrays.equals(src, qp.dgid) || !Arrays.equals(dst, qp.sgid))) {
            // A connected QP takes packets only from its peer, to its own address (as rxe_recv.c checks).
            counters.increment(Counter.DROP_WRONG_ADDRESS);
            return;
        }
        QpState state = qp.state;
        long now = io.nowNs();
        if (info.isRequest()) {
            if (state != QpState.RTR && state != QpState.RTS && state != QpState.SQD) {
                counters.increment(Counter.DROP_WRONG_QP_STATE); // IBTA 10.3.1: the responder runs from RTR on
                return;
            }
            countReceived();
            noteFirstPacket(qp, now);
            if (qp.type == QpType.UD) {
                t.responder.onDatagram(rx, src, dst);
            } else {
                t.responder.onRequest(rx, now);
            }
        } else {
            if (state != QpState.RTS && state != QpState.SQD) {
                counters.increment(Counter.DROP_WRONG_QP_STATE);
                return;
            }
            countReceived();
            noteFirstPacket(qp, now);
            switch (info.operation()) {
                case ACKNOWLEDGE -> t.completer.onAcknowledge(rx, now);
                case RDMA_READ_RESPONSE -> t.completer.onReadResponse(rx, now);
                case ATOMIC_ACKNOWLEDGE -> t.completer.onAtomicAcknowledge(rx, now);
                default -> counters.increment(Counter.DROP_UNEXPECTED_RESPONSE);
            }
            if (qp.state == QpState.RTS || qp.state == QpState.SQD) {
                t.requester.doWork(now); // an ACK may have opened the window
            }
        }
    }

    /**
     * A datagram to QPN 0xFFFFFF: a copy to every QP attached to its destination address (the
     * MGID), each checked against the QP's state and then its own Q_Key by the responder, as rxe's
     * rxe_rcv_mcast_pkt does; every copy is counted as a received packet. A destination no QP is
     * attached to has no QP for that QPN: {@link Counter#DROP_UNKNOWN_QPN}.
     */
    private void deliverMulticast(byte[] src, byte[] dst) {
        if (rx.info().transport() != TransportType.UD) {
            counters.increment(Counter.DROP_WRONG_QP_TYPE); // only UD datagrams address a group
            return;
        }
        QpTransport[] members = multicast.members(dst);
        if (members == null) {
            counters.increment(Counter.DROP_UNKNOWN_QPN);
            return;
        }
        for (QpTransport t : members) {
            QpState state = t.qp.state;
            if (state != QpState.RTR && state != QpState.RTS && state != QpState.SQD) {
                counters.increment(Counter.DROP_WRONG_QP_STATE);
                continue;
            }
            countReceived();
            t.responder.onDatagram(rx, src, dst);
        }
    }

    /**
     * The first packet a connected QP takes after RTR raises Communication Established (IBTA
     * 11.6.3.1), which the CM turns into an established connection if it still waits for the RTU.
     * One boolean per packet; the call happens once per QP.
     */
    private void noteFirstPacket(QpContext qp, long now) {
        if (qp.commEstablishedPending) {
            qp.commEstablishedPending = false;
            gsi.onCommEstablished(qp.qpn, now);
        }
    }

    private static TransportType transportOf(QpType type) {
        return switch (type) {
            case RC -> TransportType.RC;
            case UC -> TransportType.UC;
            case UD -> TransportType.UD;
        };
    }

    private void countReceived() {
        counters.increment(Counter.RCVD_PKTS);
        counters.add(Counter.RCVD_BYTES, rx.payloadLength());
    }
}
