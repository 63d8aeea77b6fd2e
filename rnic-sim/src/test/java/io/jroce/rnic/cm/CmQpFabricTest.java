package io.jroce.rnic.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * Two RC QPs connected with what the CM exchanged, as librdmacm connects them: each side's QP expects
 * the PSN its own message carried and sends from the PSN the peer's carried; then a SEND goes through.
 */
class CmQpFabricTest {
    private static final byte[] A = Gid.parse("10.0.0.1").toBytes();
    private static final byte[] B = Gid.parse("10.0.0.2").toBytes();
    private static final long SERVICE = ConnectionManager.tcpServiceId(7174);
    private static final int PSN_A = 0x00A0A0, PSN_B = 0x0B0B0B;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final SimulatedFabric fabric = new SimulatedFabric();
    private final SoftDevice devA = (SoftDevice) SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
    private final SoftDevice devB = (SoftDevice) SoftRnic.builder().name("b").address("10.0.0.2").openOn(fabric);
    private final ConnectionManager cmA = new ConnectionManager(devA.gsi(), new Random(3));
    private final ConnectionManager cmB = new ConnectionManager(devB.gsi(), new Random(4));
    private final Side a = new Side(devA);
    private final Side b = new Side(devB);
    private final QpConnector rc = QpConnector.rc().accessFlags(ACCESS).pathMtu(Mtu.MTU_1024);
    /** PSN and destination QP of every RC SEND on the wire. */
    private final List<int[]> sends = new ArrayList<>();
    /** Every CM MAD on the wire (256 bytes each); the first RTU is lost when {@link #loseFirstRtu}. */
    private final List<byte[]> mads = new ArrayList<>();
    private boolean loseFirstRtu;

    private static final class Side {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;

        Side(SoftDevice d) {
            pd = d.allocPd();
            cq = d.createCq(16);
            qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1));
            mr = pd.allocateMemory(4096, ACCESS);
        }
    }

    CmQpFabricTest() {
        fabric.fault(d -> {
            byte[] bytes = new byte[d.packet().capacity()];
            d.packet().getBytes(0, bytes);
            RocePacket p = new RocePacket();
            if (p.wrap(new UnsafeBuffer(bytes), 0, bytes.length - IcrcCalculator.ICRC_LENGTH) == ParseResult.OK
                && p.bth().opcode() == Opcode.RC_SEND_ONLY) {
                sends.add(new int[] {p.bth().psn(), p.bth().destQp()});
            }
            if (p.bth().destQp() == 1) {
                byte[] mad = new byte[256];
                p.buffer().getBytes(p.payloadOffset(), mad);
                mads.add(mad);
                return !(loseFirstRtu && attribute(mad) == MadHeaderFlyweight.ATTR_RTU && count(MadHeaderFlyweight.ATTR_RTU) == 1);
            }
            return true;
        });
    }

    private static int attribute(byte[] mad) {
        return new MadHeaderFlyweight().wrap(new UnsafeBuffer(mad), 0).attributeId();
    }

    private long count(int attribute) {
        return mads.stream().filter(m -> attribute(m) == attribute).count();
    }

    @AfterEach
    void close() {
        for (Side s : new Side[] {a, b}) {
            s.qp.close();
            s.mr.close();
            s.cq.close();
            s.pd.close();
        }
        devA.close();
        devB.close();
    }

    @Test
    void qpsMovedWithTheExchangedQpnsAndPsnsCarryASend() {
        cmB.listen(SERVICE, new CmEvents() {
            @Override
            public void onConnectRequest(CmConnection c, ConnectRequest r) {
                // cma_accept: the QP to RTR and RTS before the REP.
                rc.toInit(b.qp);
                rc.toRtr(b.qp, new RemoteQp(r.remoteQpn(), PSN_B, Gid.parse("10.0.0.1")));
                rc.toRts(b.qp, r.startingPsn());
                cmB.accept(c, new AcceptParams(b.qp.qpNum(), PSN_B, 1, 1, 7, new byte[0]));
            }
        });
        boolean[] established = new boolean[1];
        byte[] privateData = new byte[36];
        privateData[1] = 0x40;
        fabric.execute(() -> cmA.connect(new ConnectParams(SERVICE, A, B, a.qp.qpNum(), PSN_A, 1, 1, 7, 7, 3,
            privateData), new CmEvents() {
                @Override
                public void onReply(CmConnection c, ConnectReply r) {
                    // librdmacm on RDMA_CM_EVENT_CONNECT_RESPONSE: RTR and RTS, then the RTU.
                    rc.toInit(a.qp);
                    rc.toRtr(a.qp, new RemoteQp(r.remoteQpn(), PSN_A, Gid.parse("10.0.0.2")));
                    rc.toRts(a.qp, r.startingPsn());
                    cmA.ready(c);
                }

                @Override
                public void onEstablished(CmConnection c) {
                    established[0] = true;
                }
            }));
        assertTrue(fabric.runUntil(() -> established[0], 1_000_000_000L));

        byte[] message = "over a CM connection".getBytes(StandardCharsets.US_ASCII);
        a.mr.buffer().put(0, message);
        b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(b.mr, 0, 4096)));
        a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(a.mr, 0, message.length)));
        WorkCompletion recv = new WorkCompletion();
        WorkCompletion send = new WorkCompletion();
        assertTrue(fabric.runUntil(() -> b.cq.poll(recv), 1_000_000_000L));
        assertTrue(fabric.runUntil(() -> a.cq.poll(send), 1_000_000_000L));
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(WcOpcode.RECV, recv.opcode());
        assertEquals(message.length, recv.byteLen());
        byte[] got = new byte[message.length];
        b.mr.buffer().get(0, got);
        assertArrayEquals(message, got);
        assertEquals(WcStatus.SUCCESS, send.status(), send.toString());
        assertEquals(1, sends.size());
        assertEquals(PSN_B, sends.get(0)[0], "the active side sends from the REP's starting PSN");
        assertEquals(b.qp.qpNum(), sends.get(0)[1]);
    }

    @Test
    void aLostRtuIsReplacedByTheFirstPacketTheQpTakesAndALateRtuIsAbsorbed() {
        loseFirstRtu = true;
        List<String> passive = new ArrayList<>();
        CmConnection[] passiveConn = new CmConnection[1];
        cmB.listen(SERVICE, new CmEvents() {
            @Override
            public void onConnectRequest(CmConnection c, ConnectRequest r) {
                passiveConn[0] = c;
                rc.toInit(b.qp);
                rc.toRtr(b.qp, new RemoteQp(r.remoteQpn(), PSN_B, Gid.parse("10.0.0.1")));
                rc.toRts(b.qp, r.startingPsn());
                cmB.accept(c, new AcceptParams(b.qp.qpNum(), PSN_B, 1, 1, 7, new byte[0]));
            }

            @Override
            public void onEstablished(CmConnection c) {
                passive.add("ESTABLISHED");
            }
        });
        boolean[] established = new boolean[1];
        byte[] privateData = new byte[36];
        privateData[1] = 0x40;
        fabric.execute(() -> cmA.connect(new ConnectParams(SERVICE, A, B, a.qp.qpNum(), PSN_A, 1, 1, 7, 7, 3,
            privateData), new CmEvents() {
                @Override
                public void onReply(CmConnection c, ConnectReply r) {
                    rc.toInit(a.qp);
                    rc.toRtr(a.qp, new RemoteQp(r.remoteQpn(), PSN_A, Gid.parse("10.0.0.2")));
                    rc.toRts(a.qp, r.startingPsn());
                    cmA.ready(c);
                }

                @Override
                public void onEstablished(CmConnection c) {
                    established[0] = true;
                }
            }));
        assertTrue(fabric.runUntil(() -> established[0], 1_000_000_000L));
        assertEquals(1, count(MadHeaderFlyweight.ATTR_RTU), "the RTU left A and was lost");
        assertEquals(CmState.REP_SENT, passiveConn[0].state());
        assertEquals(List.of(), passive);

        // A sends at once, as an application may after ESTABLISHED: B's QP takes the SEND, and
        // Communication Established (IBTA 11.6.3.1) establishes B's connection as the RTU would have.
        byte[] message = "before the RTU".getBytes(StandardCharsets.US_ASCII);
        a.mr.buffer().put(0, message);
        b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(b.mr, 0, 4096)));
        a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(a.mr, 0, message.length)));
        WorkCompletion recv = new WorkCompletion();
        assertTrue(fabric.runUntil(() -> b.cq.poll(recv), 1_000_000_000L));
        assertEquals(WcStatus.SUCCESS, recv.status(), recv.toString());
        assertEquals(List.of("ESTABLISHED"), passive);
        assertEquals(CmState.ESTABLISHED, passiveConn[0].state());

        fabric.runFor(5_000_000_000L);
        assertEquals(1, count(MadHeaderFlyweight.ATTR_REP), "the REP's retransmission stopped (4096 ms passed)");

        // The RTU that was late all along: a repeat, counted and dropped.
        byte[] rtu = mads.stream().filter(m -> attribute(m) == MadHeaderFlyweight.ATTR_RTU).findFirst().orElseThrow();
        fabric.execute(() -> devA.gsi().send(new UnsafeBuffer(rtu), 0, A, B, 4791));
        fabric.runFor(10_000_000L);
        assertEquals(List.of("ESTABLISHED"), passive, "reported once");
        assertEquals(1L, devB.counters().get("cm_drop_unexpected"));
    }
}
