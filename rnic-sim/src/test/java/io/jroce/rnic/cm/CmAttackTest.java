package io.jroce.rnic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.mad.CmDreqFlyweight;
import io.jroce.stack.mad.CmDrepFlyweight;
import io.jroce.stack.mad.CmMraFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.CmRtuFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.Gid;

/**
 * The connection manager under attack: MADs crafted by a host that can send UDP to port 4791
 * (here, device A's GSI sending raw MADs to B on the simulated fabric, 1 ms tick). Each test names
 * what the kernel's {@code cm.c} does with the same MADs.
 */
class CmAttackTest {
    private static final byte[] A = Gid.parse("10.0.0.1").toBytes();
    private static final byte[] B = Gid.parse("10.0.0.2").toBytes();
    private static final long MS = 1_000_000L;
    private static final long SERVICE = ConnectionManager.tcpServiceId(7174);
    private static final int QPN_A = 0x11, QPN_B = 0x22;

    private final SimulatedFabric fabric = SimulatedFabric.builder().tickNs(MS).build();
    private final SoftDevice devA = (SoftDevice) SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
    private final SoftDevice devB = (SoftDevice) SoftRnic.builder().name("b").address("10.0.0.2").openOn(fabric);
    private final ConnectionManager cmA = new ConnectionManager(devA.gsi(), new Random(1));
    private final ConnectionManager cmB = new ConnectionManager(devB.gsi(), new Random(2));
    /** Every MAD on the wire, in order, with whether A sent it. */
    private final List<byte[]> fromA = new ArrayList<>();
    private final List<byte[]> fromB = new ArrayList<>();
    private final Recorder eventsA = new Recorder(cmA);
    private final Recorder eventsB = new Recorder(cmB);

    /** Records events; the passive side accepts unless told not to, the active side answers a REP with an RTU. */
    private static final class Recorder implements CmEvents {
        final ConnectionManager cm;
        final List<String> events = new ArrayList<>();
        final List<CmConnection> connections = new ArrayList<>();
        final List<ConnectRequest> requests = new ArrayList<>();
        boolean accept = true;
        RuntimeException throwOnUnreachable;

        Recorder(ConnectionManager cm) {
            this.cm = cm;
        }

        @Override
        public void onConnectRequest(CmConnection c, ConnectRequest r) {
            events.add("CONNECT_REQUEST");
            connections.add(c);
            requests.add(r);
            if (accept) {
                cm.accept(c, new AcceptParams(QPN_B + established, 0x12345, r.responderResources(), r.initiatorDepth(),
                    r.rnrRetryCount(), new byte[0]));
            }
        }

        @Override
        public void onReply(CmConnection c, ConnectReply r) {
            events.add("REPLY");
            cm.ready(c);
        }

        @Override
        public void onEstablished(CmConnection c) {
            events.add("ESTABLISHED");
        }

        @Override
        public void onRejected(CmConnection c, int reason) {
            events.add("REJECTED " + reason);
        }

        @Override
        public void onUnreachable(CmConnection c) {
            events.add("UNREACHABLE");
            if (throwOnUnreachable != null) {
                throw throwOnUnreachable;
            }
        }

        @Override
        public void onDisconnected(CmConnection c) {
            events.add("DISCONNECTED");
        }

        @Override
        public void onTimeWaitExit(CmConnection c) {
            events.add("TIMEWAIT_EXIT");
        }
    }

    private boolean dropReqs;

    CmAttackTest() {
        fabric.fault(d -> {
            RocePacket p = new RocePacket();
            byte[] bytes = new byte[d.packet().capacity()];
            d.packet().getBytes(0, bytes);
            assertEquals(ParseResult.OK, p.wrap(new UnsafeBuffer(bytes), 0, bytes.length - IcrcCalculator.ICRC_LENGTH));
            byte[] mad = new byte[256];
            p.buffer().getBytes(p.payloadOffset(), mad);
            boolean a = d.src()[d.src().length - 1] == A[15];
            (a ? fromA : fromB).add(mad);
            return !(dropReqs && attribute(mad) == MadHeaderFlyweight.ATTR_REQ);
        });
    }

    @AfterEach
    void close() {
        assertEquals(0L, count(devA, "drop_internal_error"), "nothing thrown on A's I/O thread");
        assertEquals(0L, count(devB, "drop_internal_error"), "nothing thrown on B's I/O thread");
        devA.close();
        devB.close();
    }

    private static int attribute(byte[] mad) {
        return new MadHeaderFlyweight().wrap(new UnsafeBuffer(mad), 0).attributeId();
    }

    private long count(SoftDevice d, String name) {
        return d.counters().get(name);
    }

    /** Sends {@code mad} from A's GSI to B's, as any host on the network can. */
    private void inject(byte[] mad) {
        fabric.execute(() -> devA.gsi().send(new UnsafeBuffer(mad), 0, A, B, 4791));
        fabric.runFor(2 * MS);
    }

    /** A REQ as the kernel's CMA sends it (RC, timeouts 20, 15 retries, MTU 3), then changed by {@code tweak}. */
    private static byte[] req(int commId, long caGuid, Consumer<CmReqFlyweight> tweak) {
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(MadHeaderFlyweight.ATTR_REQ, commId);
        CmReqFlyweight r = new CmReqFlyweight().wrap(buf, 0).localCommId(commId).serviceId(SERVICE)
            .localCaGuid(caGuid).localQpn(0x99).responderResources(1).initiatorDepth(1).remoteCmResponseTimeout(20)
            .transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(0x777).localCmResponseTimeout(20)
            .retryCount(7).partitionKey(0xFFFF).pathMtu(3).rnrRetryCount(7).maxCmRetries(15);
        // the path as the sender's CM fills it: its own GID first (cm_req_handler refuses another, REJ 12)
        r.primaryPath(new io.jroce.stack.mad.CmPathFlyweight()).localPortGid(A, 0).remotePortGid(B, 0);
        mad[CmReqFlyweight.PRIVATE_DATA_OFFSET + 1] = 0x40; // the CMA header: IPv4
        tweak.accept(r);
        return mad;
    }

    private static byte[] message(int attribute, Consumer<UnsafeBuffer> fields) {
        byte[] mad = new byte[256];
        UnsafeBuffer buf = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(buf, 0).cmSend(attribute, 1);
        fields.accept(buf);
        return mad;
    }

    private boolean listening;
    /**
     * Connections made by {@link #establish}: each takes QPs of its own on both sides, as a real
     * consumer's would (the same peer QP twice is a stale connection, REJ 10).
     */
    private static int established;

    private CmConnection[] establish() {
        if (!listening) {
            cmB.listen(SERVICE, eventsB);
            listening = true;
        }
        byte[] pd = new byte[36];
        pd[1] = 0x40;
        CmConnection[] c = new CmConnection[2];
        established++;
        fabric.execute(() -> c[0] = cmA.connect(new ConnectParams(SERVICE, A, B, QPN_A + established, 0xABCDE, 1, 1,
            7, 7, 3, pd), eventsA));
        fabric.runFor(10 * MS);
        c[1] = eventsB.connections.get(eventsB.connections.size() - 1);
        assertEquals(CmState.ESTABLISHED, c[0].state());
        assertEquals(CmState.ESTABLISHED, c[1].state());
        return c;
    }

    /**
     * Out-of-range REQ fields reach the consumer as they came (the kernel's cm_req_handler checks none
     * of them either): a path MTU of 0 or 15, QPNs 0, 1 and 0xFFFFFF, responder resources 255, the
     * longest CM response timeout, every private data byte 0xFF. The consumer decides; nothing throws.
     */
    @Test
    void outOfRangeReqFieldsReachTheConsumerAndNothingThrows() {
        cmB.listen(SERVICE, eventsB);
        List<Consumer<CmReqFlyweight>> tweaks = List.of(r -> r.pathMtu(0), r -> r.pathMtu(15), r -> r.localQpn(0),
            r -> r.localQpn(1), r -> r.localQpn(0xFFFFFF), r -> r.responderResources(255).initiatorDepth(255),
            r -> r.localCmResponseTimeout(31).remoteCmResponseTimeout(31).maxCmRetries(15),
            r -> r.startingPsn(0xFFFFFF).retryCount(7).rnrRetryCount(7),
            r -> {
                byte[] ff = new byte[CmReqFlyweight.PRIVATE_DATA_LENGTH];
                java.util.Arrays.fill(ff, (byte) 0xFF);
                r.putPrivateData(ff, 0, ff.length);
            });
        for (int i = 0; i < tweaks.size(); i++) {
            inject(req(0x1000 + i, 0xA77AC3L + i, tweaks.get(i))); // CAs of their own: one QP twice is stale (REJ 10)
        }
        assertEquals(tweaks.size(), eventsB.requests.size());
        assertEquals(0, eventsB.requests.get(0).pathMtu());
        assertEquals(15, eventsB.requests.get(1).pathMtu());
        assertEquals(0xFFFFFF, eventsB.requests.get(4).remoteQpn());
        assertEquals(255, eventsB.requests.get(5).responderResources());
        assertEquals(tweaks.size(), fromB.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_REP).count());
    }

    /** UC and RD REQs, and REQs for other port spaces' services, are refused; nothing is kept for them. */
    @Test
    void reqsForOtherTransportsOrServicesLeaveNoConnection() {
        cmB.listen(SERVICE, eventsB);
        inject(req(0x2001, 7, r -> r.transportServiceType(1)));
        inject(req(0x2002, 7, r -> r.transportServiceType(2)));
        inject(req(0x2003, 7, r -> r.serviceId(0x013F_0000_0000L | 7174))); // the IB port space
        inject(req(0x2004, 7, r -> r.serviceId(0x0111_0000L | 7174))); // UDP
        assertEquals(0, eventsB.requests.size());
        assertEquals(0, cmB.connections());
        assertEquals(0L, count(devB, "cm_drop_bad_mad"));
        List<Integer> reasons = fromB.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_REJ)
            .map(m -> new CmRejFlyweight().wrap(new UnsafeBuffer(m), 0).reason()).toList();
        assertEquals(List.of(28, 28, 8, 8), reasons,
            "REJ 28 for UC and RD (the CMA's QP type check), REJ 8 for the services nobody listens to: one per "
            + "REQ, no larger than it (cm_issue_rej)");
    }

    /**
     * To touch an established connection, a forged RTU, DREQ, DREP, REJ or MRA must name both comm
     * IDs (cm.c: cm_acquire_id(remote, local)), a DREQ also the receiver's QP: with one ID wrong or a
     * wrong QPN each is counted and dropped, and the connection stays up.
     */
    @Test
    void forgedMessagesNamingOnlyOneCommIdDoNotTouchAConnection() {
        CmConnection[] c = establish();
        CmConnection b = c[1];
        int ours = b.localCommId(), theirs = b.remoteCommId(), wrong = theirs + 1;
        inject(message(MadHeaderFlyweight.ATTR_DREQ, buf ->
            new CmDreqFlyweight().wrap(buf, 0).localCommId(wrong).remoteCommId(ours).remoteQpn(b.localQpn())));
        inject(message(MadHeaderFlyweight.ATTR_DREQ, buf ->
            new CmDreqFlyweight().wrap(buf, 0).localCommId(theirs).remoteCommId(ours).remoteQpn(b.localQpn() + 1)));
        inject(message(MadHeaderFlyweight.ATTR_DREP, buf ->
            new CmDrepFlyweight().wrap(buf, 0).localCommId(wrong).remoteCommId(ours)));
        inject(message(MadHeaderFlyweight.ATTR_RTU, buf ->
            new CmRtuFlyweight().wrap(buf, 0).localCommId(wrong).remoteCommId(ours)));
        inject(message(MadHeaderFlyweight.ATTR_REJ, buf -> new CmRejFlyweight().wrap(buf, 0).localCommId(wrong)
            .remoteCommId(ours).messageRejected(CmRejFlyweight.REJECTED_OTHER).reason(28)));
        inject(message(MadHeaderFlyweight.ATTR_REJ, buf -> new CmRejFlyweight().wrap(buf, 0).localCommId(wrong)
            .remoteCommId(ours).messageRejected(CmRejFlyweight.REJECTED_REP).reason(28).rejectInfoLength(127)));
        inject(message(MadHeaderFlyweight.ATTR_MRA, buf -> new CmMraFlyweight().wrap(buf, 0).localCommId(wrong)
            .remoteCommId(ours).messageMraed(CmMraFlyweight.MRAED_REP).serviceTimeout(31)));
        assertEquals(CmState.ESTABLISHED, b.state());
        assertEquals(CmState.ESTABLISHED, c[0].state());
        assertEquals(List.of("CONNECT_REQUEST", "ESTABLISHED"), eventsB.events);
        assertEquals(5L, count(devB, "cm_drop_unmatched"), "DREP, RTU, both REJs and the MRA name one ID right");
        assertEquals(1L, count(devB, "cm_drop_unexpected"), "the DREQ for another QP");
    }

    /**
     * Random CM MADs of every attribute, some naming a live connection's IDs, to a device with a
     * listener and live connections: whatever they do to the connections, nothing is thrown on the
     * I/O thread (checked after each test) and the manager still connects afterwards.
     */
    @Test
    void randomMadsOfEveryAttributeNeverThrow() {
        CmConnection[] c = establish();
        Random random = new Random(42);
        int[] attributes = {MadHeaderFlyweight.ATTR_REQ, MadHeaderFlyweight.ATTR_MRA, MadHeaderFlyweight.ATTR_REJ,
            MadHeaderFlyweight.ATTR_REP, MadHeaderFlyweight.ATTR_RTU, MadHeaderFlyweight.ATTR_DREQ,
            MadHeaderFlyweight.ATTR_DREP, 0x17, 0x18, 0x19, 0x1A};
        for (int i = 0; i < 3000; i++) {
            byte[] mad = new byte[256];
            random.nextBytes(mad);
            UnsafeBuffer buf = new UnsafeBuffer(mad);
            new MadHeaderFlyweight().wrap(buf, 0).baseVersion(1).mgmtClass(0x07).classVersion(2)
                .method(MadHeaderFlyweight.METHOD_SEND).attributeId(attributes[i % attributes.length]);
            if (random.nextBoolean()) {
                buf.putInt(24, random.nextBoolean() ? c[1].remoteCommId() : c[1].localCommId());
                buf.putInt(28, random.nextBoolean() ? c[1].localCommId() : c[1].remoteCommId());
            }
            if (random.nextInt(4) == 0) {
                buf.putLong(32, SERVICE); // a REQ for the listened service
            }
            fabric.execute(() -> devA.gsi().send(buf, 0, A, B, 4791));
            if (i % 100 == 99) {
                fabric.runFor(MS);
            }
        }
        fabric.runFor(600_000 * MS); // every timer the MADs started runs out
        eventsB.accept = true;
        CmConnection[] again = establish();
        assertEquals(CmState.ESTABLISHED, again[0].state());
    }

    /**
     * One consumer's exception in a timer's event must not stop the other connections' timers: the
     * manager's walk over all connections used to clear its "armed" flag first and note the next
     * deadline during the walk, so an exception mid-walk left every later timer unarmed for good
     * (REQs never resent, TimeWait never left).
     */
    @Test
    void anExceptionInOneTimerEventLeavesTheOtherTimersRunning() {
        dropReqs = true;
        // Seed 3: the throwing connection came first in the old walk's order (a HashMap's), the case it lost.
        ConnectionManager cm = new ConnectionManager(devA.gsi(), new Random(3));
        Recorder first = new Recorder(cm);
        first.throwOnUnreachable = new IllegalStateException("a consumer's bug");
        Recorder second = new Recorder(cm);
        byte[] pd = new byte[36];
        CmConnection[] other = new CmConnection[1];
        fabric.execute(() -> cm.connect(new ConnectParams(SERVICE, A, B, QPN_A, 1, 1, 1, 7, 7, 3, pd), first));
        fabric.runFor(5 * MS);
        fabric.execute(() -> other[0] = cm.connect(new ConnectParams(SERVICE, A, B, QPN_A + 1, 2, 1, 1, 7, 7, 3, pd),
            second));
        // The first REQ's last retry expires at 16 * 6144 ms and its event throws (the engine's timer logs it);
        // the second's come 5 ms later, on other ticks.
        fabric.runFor(16 * 6144 * MS + 100 * MS);
        assertEquals(List.of("UNREACHABLE"), first.events);
        assertEquals(List.of("UNREACHABLE"), second.events, "the second connection's timers still ran");
        assertEquals(CmState.IDLE, other[0].state());
        assertEquals(32, fromA.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_REQ).count());
        assertEquals(0, cm.connections());
    }

    /** A listener's backlog is full (ucma.c): the REQ is forgotten unanswered, and its retry is a new request. */
    @Test
    void aDroppedRequestIsForgottenSilentlyAndItsRetryIsNew() {
        cmB.listen(SERVICE, eventsB);
        eventsB.accept = false;
        byte[] mad = req(0x3001, 0xC0FFEEL, r -> { });
        inject(mad);
        CmConnection b = eventsB.connections.get(0);
        fabric.execute(() -> cmB.dropRequest(b));
        fabric.runFor(MS);
        assertEquals(0, cmB.connections());
        assertEquals(CmState.IDLE, b.state());
        assertEquals(0, fromB.size(), "no REJ: cm_destroy_id with -ENOMEM lets the peer retry");
        inject(mad);
        assertEquals(2, eventsB.requests.size(), "the repeated REQ is reported again, not answered with an MRA");
        assertEquals(0, fromB.size());
        assertThrows(IllegalStateException.class, () -> cmB.dropRequest(eventsB.connections.get(0)));
    }

    /** cm_destroy_id on a REQ received and not answered: REJ 28 for the REQ, and the connection is gone. */
    @Test
    void destroyingAnUnansweredRequestRejectsIt() {
        cmB.listen(SERVICE, eventsB);
        eventsB.accept = false;
        inject(req(0x3002, 0xC0FFEEL, r -> { }));
        CmConnection b = eventsB.connections.get(0);
        fabric.execute(() -> cmB.destroy(b));
        fabric.runFor(MS);
        assertEquals(0, cmB.connections());
        assertEquals(1, fromB.size());
        CmRejFlyweight rej = new CmRejFlyweight().wrap(new UnsafeBuffer(fromB.get(0)), 0);
        assertEquals(MadHeaderFlyweight.ATTR_REJ, attribute(fromB.get(0)));
        assertEquals(28, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_REQ, rej.messageRejected());
        assertEquals(0x3002, rej.remoteCommId());
        assertEquals(List.of("CONNECT_REQUEST"), eventsB.events, "the consumer that destroyed it hears nothing more");
    }

    /** cm_destroy_id on an established connection: one DREQ, the peer disconnects, and both pass TimeWait. */
    @Test
    void destroyingAnEstablishedConnectionSendsADreqAndPassesTimeWait() {
        CmConnection[] c = establish();
        int before = fromA.size();
        fabric.execute(() -> cmA.destroy(c[0]));
        fabric.runFor(10 * MS);
        assertEquals(MadHeaderFlyweight.ATTR_DREQ, attribute(fromA.get(before)));
        assertEquals(CmState.TIMEWAIT, c[0].state());
        assertEquals(CmState.DREQ_RCVD, c[1].state());
        assertTrue(eventsB.events.contains("DISCONNECTED"));
        fabric.execute(() -> cmB.disconnect(c[1]));
        fabric.runFor(3000 * MS);
        assertEquals(0, cmA.connections());
        assertEquals(0, cmB.connections());
        assertEquals(before + 1, fromA.size(), "the DREQ is not retransmitted");
        assertEquals(List.of("REPLY", "ESTABLISHED"), eventsA.events, "the consumer that destroyed it hears nothing more");
    }

    /** cm_destroy_id on a REQ sent: REJ 4 (timeout) "other" with this side's CA GUID, which the peer matches on. */
    @Test
    void destroyingAReqSentRejectsItWithTimeoutAndTheCaGuid() {
        dropReqs = true;
        byte[] pd = new byte[36];
        CmConnection[] a = new CmConnection[1];
        fabric.execute(() -> a[0] = cmA.connect(new ConnectParams(SERVICE, A, B, QPN_A, 1, 1, 1, 7, 7, 3, pd), eventsA));
        fabric.runFor(MS);
        fabric.execute(() -> cmA.destroy(a[0]));
        fabric.runFor(20_000 * MS);
        assertEquals(0, cmA.connections());
        List<byte[]> rejs = fromA.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_REJ).toList();
        assertEquals(1, rejs.size());
        assertEquals(1, fromA.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_REQ).count(),
            "no REQ retransmitted after the destroy");
        CmRejFlyweight rej = new CmRejFlyweight().wrap(new UnsafeBuffer(rejs.get(0)), 0);
        assertEquals(CmRejFlyweight.REASON_TIMEOUT, rej.reason());
        assertEquals(CmRejFlyweight.REJECTED_OTHER, rej.messageRejected());
        assertEquals(a[0].localCommId(), rej.localCommId());
        assertEquals(8, rej.rejectInfoLength());
        assertEquals(cmA.caGuid(), new UnsafeBuffer(rejs.get(0)).getLong(CmRejFlyweight.ADDITIONAL_REJECT_INFO_OFFSET,
            java.nio.ByteOrder.BIG_ENDIAN));
        assertEquals(List.of(), eventsA.events);
    }
}
