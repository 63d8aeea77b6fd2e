package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.jroce.rnic.core.Gsi;
import io.jroce.rnic.core.MadHandler;
import io.jroce.rnic.core.SoftDevice;
import io.jroce.stack.fabric.FabricEndpoint;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.stats.Counters;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/** The GSI (QP1) of two devices on the simulated fabric: MADs sent, received, and malformed ones dropped. */
class GsiFabricTest {
    private static final byte[] A = Gid.parse("10.0.0.1").toBytes();
    private static final byte[] B = Gid.parse("10.0.0.2").toBytes();
    private final SimulatedFabric fabric = new SimulatedFabric();
    private final SoftDevice devA = (SoftDevice) SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
    private final SoftDevice devB = (SoftDevice) SoftRnic.builder().name("b").address("10.0.0.2").openOn(fabric);
    private final List<Received> received = new ArrayList<>();
    private final List<byte[]> wire = new ArrayList<>();
    private final List<int[]> wirePorts = new ArrayList<>();
    private final UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final RocePacket packet = new RocePacket();

    /** What B's handler was given, copied (the arguments are views valid only during the call). */
    private record Received(byte[] mad, byte[] peerGid, int peerPort, int sourceQp, int pkeyIndex, byte[] localGid,
                            long nowNs) {
    }

    private final MadHandler recorder = (DirectBuffer mad, byte[] peerGid, int peerPort, int sourceQp, int pkeyIndex,
                                         byte[] localGid, long nowNs) -> {
        byte[] copy = new byte[mad.capacity()];
        mad.getBytes(0, copy);
        received.add(new Received(copy, peerGid.clone(), peerPort, sourceQp, pkeyIndex, localGid.clone(), nowNs));
    };

    GsiFabricTest() {
        fabric.fault(d -> {
            byte[] bytes = new byte[d.packet().capacity()];
            d.packet().getBytes(0, bytes);
            wire.add(bytes);
            wirePorts.add(new int[] {d.srcPort(), d.dstPort()});
            return true;
        });
    }

    @AfterEach
    void close() {
        devA.close();
        devB.close();
    }

    /** A CM-class MAD (base version 1, class 0x07, class version 2) with random attribute bytes. */
    private static byte[] cmMad(long seed) {
        byte[] mad = new byte[Gsi.MAD_LENGTH];
        new Random(seed).nextBytes(mad);
        mad[0] = 1;
        mad[1] = 0x07;
        mad[2] = 2;
        return mad;
    }

    private long count(SoftDevice d, String name) {
        Map<String, Long> c = d.counters();
        return c.get(name);
    }

    private void sendFromA(byte[] mad) {
        fabric.execute(() -> assertTrue(devA.gsi().send(new UnsafeBuffer(mad), 0, A, B, Gsi.ROCE_PORT)));
        fabric.runFor(1_000_000);
    }

    @Test
    void aMadFromAsGsiReachesBsHandlerWithAsAddressAndTheExactHeadersOnTheWire() {
        devB.gsi().handler(recorder);
        byte[] mad = cmMad(1);
        sendFromA(mad);

        assertEquals(1, received.size());
        Received r = received.get(0);
        assertArrayEquals(mad, r.mad(), "exactly the 256 bytes sent");
        assertArrayEquals(A, r.peerGid());
        assertEquals(4791, r.peerPort(), "A's endpoint port on the fabric");
        assertEquals(1, r.sourceQp());
        assertEquals(0, r.pkeyIndex());
        assertArrayEquals(B, r.localGid());
        assertEquals(1L, count(devA, "sent_mads"));
        assertEquals(1L, count(devB, "rcvd_mads"));

        assertEquals(1, wire.size());
        byte[] bytes = wire.get(0);
        assertEquals(4791, wirePorts.get(0)[1], "to the RoCEv2 port");
        int length = bytes.length - IcrcCalculator.ICRC_LENGTH;
        assertEquals(ParseResult.OK, packet.wrap(new UnsafeBuffer(bytes), 0, length));
        BthFlyweight bth = packet.bth();
        assertEquals(Opcode.UD_SEND_ONLY, bth.opcode());
        assertEquals(0xFFFF, bth.partitionKey());
        assertEquals(1, bth.destQp());
        assertEquals(0, bth.padCount());
        assertEquals(0x80010000, packet.deth().qKey());
        assertEquals(1, packet.deth().sourceQp());
        assertEquals(256, packet.payloadLength());
        byte[] payload = new byte[256];
        packet.buffer().getBytes(packet.payloadOffset(), payload);
        assertArrayEquals(mad, payload);
    }

    @Test
    void theHandlerAnswersToWhereTheMadCameFromOnTheIoThread() {
        devB.gsi().handler((mad, peerGid, peerPort, sourceQp, pkeyIndex, localGid, nowNs) -> {
            UnsafeBuffer answer = new UnsafeBuffer(new byte[Gsi.MAD_LENGTH]);
            answer.putBytes(0, mad, 0, Gsi.MAD_LENGTH);
            answer.putByte(3, (byte) 0x81); // a response method, as a CM would set it
            devB.gsi().send(answer, 0, localGid, peerGid, peerPort);
        });
        devA.gsi().handler(recorder);
        byte[] mad = cmMad(2);
        sendFromA(mad);
        assertEquals(1, received.size());
        byte[] expected = mad.clone();
        expected[3] = (byte) 0x81;
        assertArrayEquals(expected, received.get(0).mad());
        assertArrayEquals(B, received.get(0).peerGid());
        assertEquals(1L, count(devB, "sent_mads"));
        assertEquals(1L, count(devA, "rcvd_mads"));
    }

    @Test
    void withNoHandlerAMadIsCountedAndDropped() {
        sendFromA(cmMad(3));
        assertEquals(1L, count(devB, "rcvd_mads"));
        assertEquals(1L, count(devB, "drop_no_mad_handler"));
        devB.gsi().handler(recorder);
        devB.gsi().handler(null);
        sendFromA(cmMad(4));
        assertEquals(2L, count(devB, "drop_no_mad_handler"));
        assertTrue(received.isEmpty());
    }

    /** Builds a packet to B's QP1 in {@link #buf}: {@code opcode} with a payload of {@code payload} bytes of a CM MAD. */
    private int toQp1(int opcode, int payload, int qkey) {
        int len = packet.build(buf, 0, opcode, payload);
        packet.bth().partitionKey(0xFFFF).destQp(Gsi.QPN).psn(7);
        if (packet.info().has(ExtensionHeader.DETH)) {
            packet.deth().qKey(qkey).sourceQp(1);
        }
        byte[] mad = cmMad(payload);
        buf.putBytes(packet.payloadOffset(), mad, 0, Math.min(payload, mad.length));
        return len;
    }

    private void inject(FabricEndpoint rogue, int length) {
        rogue.send(buf, 0, length, Gid.parse("10.0.0.9").toBytes(), B, 4791);
        fabric.runFor(1_000_000);
    }

    @Test
    void eachMalformedPacketToQp1IsDroppedAndCountedNeverThrown() {
        devB.gsi().handler(recorder);
        // A CM's sender port is 0xC000 plus a hash (rxe): any source port is taken, and given to the handler.
        FabricEndpoint rogue = fabric.attach("10.0.0.9", 0xC123, new Counters());

        inject(rogue, toQp1(Opcode.UD_SEND_ONLY, 256, 0x11111111));
        assertEquals(1L, count(devB, "drop_bad_qkey"), "wrong Q_Key");
        inject(rogue, toQp1(Opcode.UD_SEND_ONLY, 256, 0x80000000));
        assertEquals(2L, count(devB, "drop_bad_qkey"), "another controlled Q_Key");

        inject(rogue, toQp1(Opcode.UD_SEND_ONLY, 252, Gsi.Q_KEY));
        inject(rogue, toQp1(Opcode.UD_SEND_ONLY, 260, Gsi.Q_KEY));
        assertEquals(2L, count(devB, "drop_bad_mad"), "252 and 260 bytes");
        int len = toQp1(Opcode.UD_SEND_ONLY, 256, Gsi.Q_KEY);
        packet.bth().padCount(1); // 255 bytes of payload
        inject(rogue, len);
        assertEquals(3L, count(devB, "drop_bad_mad"), "255 bytes");
        len = toQp1(Opcode.UD_SEND_ONLY, 260, Gsi.Q_KEY);
        packet.bth().padCount(3); // 257 bytes of payload
        inject(rogue, len);
        assertEquals(4L, count(devB, "drop_bad_mad"), "257 bytes");

        inject(rogue, toQp1(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, 256, Gsi.Q_KEY));
        assertEquals(5L, count(devB, "drop_bad_mad"), "a MAD carries no immediate");

        inject(rogue, toQp1(Opcode.RC_SEND_ONLY, 256, Gsi.Q_KEY));
        inject(rogue, toQp1(Opcode.UC_SEND_ONLY, 256, Gsi.Q_KEY));
        assertEquals(2L, count(devB, "drop_wrong_qp_type"), "RC and UC opcodes to QP1");

        len = toQp1(Opcode.UD_SEND_ONLY, 256, Gsi.Q_KEY);
        buf.putByte(packet.payloadOffset(), (byte) 2);
        inject(rogue, len);
        assertEquals(1L, count(devB, "drop_unsupported_mad"), "base version 2");
        len = toQp1(Opcode.UD_SEND_ONLY, 256, Gsi.Q_KEY);
        buf.putByte(packet.payloadOffset() + 1, (byte) 0x03); // subnet administration: not handled on RoCE
        inject(rogue, len);
        assertEquals(2L, count(devB, "drop_unsupported_mad"), "class 0x03");

        len = toQp1(Opcode.UD_SEND_ONLY, 256, Gsi.Q_KEY);
        packet.bth().partitionKey(0x1234);
        inject(rogue, len);
        assertEquals(1L, count(devB, "drop_bad_pkey"));

        assertTrue(received.isEmpty(), "no malformed MAD reached the handler");
        assertEquals(9L, count(devB, "rcvd_pkts"), "QP1 took the 9 UD packets, as a UD QP counts what it takes");
        assertEquals(0L, count(devB, "rcvd_mads"));
        assertEquals(0L, count(devB, "drop_internal_error"));

        // The same datagram, well formed, from the unknown address and port: a UD QP takes any sender.
        inject(rogue, toQp1(Opcode.UD_SEND_ONLY, 256, Gsi.Q_KEY));
        assertEquals(1, received.size());
        assertArrayEquals(cmMad(256), received.get(0).mad());
        assertArrayEquals(Gid.parse("10.0.0.9").toBytes(), received.get(0).peerGid());
        assertEquals(0xC123, received.get(0).peerPort());
    }

    @Test
    void aHandlerThatThrowsCostsOneCountedDropAndTheNextMadStillArrives() {
        devB.gsi().handler((mad, peerGid, peerPort, sourceQp, pkeyIndex, localGid, nowNs) -> {
            throw new IllegalStateException("a CM bug");
        });
        sendFromA(cmMad(7));
        assertEquals(1L, count(devB, "drop_internal_error"));
        devB.gsi().handler(recorder);
        sendFromA(cmMad(8));
        assertEquals(1, received.size());
        assertArrayEquals(cmMad(8), received.get(0).mad());
    }

    @Test
    void anApplicationUdSendToQp1CarriesItsOwnQkeyAndIsDropped() {
        ProtectionDomain pd = devA.allocPd();
        CompletionQueue cq = devA.createCq(16);
        MemoryRegion mr = pd.allocateMemory(4096, 0);
        QueuePair qp = pd.createQp(new QpInitAttributes().type(QpType.UD).cq(cq));
        try {
            assertThrows(InvalidAttributeException.class, () -> qp.modify(new QpAttributes().state(QpState.INIT)
                .pkeyIndex(0).portNum(1).qkey(Gsi.Q_KEY)), "an application QP cannot hold the GSI's Q_Key");
            QpConnector.ud(0x11111111).activate(qp, 0);
            devB.gsi().handler(recorder);
            try (AddressHandle ah = pd.createAddressHandle(new AddressVector().destGid(devB.gids().get(0)))) {
                // The WR's controlled Q_Key means "the QP's own" (IBTA 10.2.4): 0x11111111 goes on the wire.
                mr.buffer().put(0, cmMad(5));
                qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).ud(ah, Gsi.QPN, Gsi.Q_KEY)
                    .sgList(ScatterGatherEntry.of(mr, 0, 256)));
                fabric.runFor(1_000_000);
            }
            assertEquals(1L, count(devB, "drop_bad_qkey"));
            assertFalse(received.size() > 0, "application traffic never reaches the GSI's handler");
        } finally {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
        }
    }

    @Test
    void sendIsRefusedOffTheIoThreadAndForBadArguments() {
        UnsafeBuffer mad = new UnsafeBuffer(cmMad(6));
        fabric.runFor(1); // the test thread now runs the fabric: it is the I/O thread
        assertThrows(IllegalArgumentException.class, () -> devA.gsi().send(new UnsafeBuffer(new byte[255]), 0, A, B, 4791));
        assertThrows(IllegalArgumentException.class, () -> devA.gsi().send(mad, 1, A, B, 4791));
        assertThrows(IllegalArgumentException.class, () -> devA.gsi().send(mad, 0, B, A, 4791), "B is not A's GID");
        assertThrows(IllegalArgumentException.class, () -> devA.gsi().send(mad, 0, A, B, 0));
        assertEquals(0L, count(devA, "sent_mads"));
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                devA.gsi().send(mad, 0, A, B, 4791);
            } catch (IllegalStateException e) {
                thrown[0] = e;
            }
        });
        t.start();
        assertTrue(joined(t));
        assertTrue(thrown[0] instanceof IllegalStateException, "off the I/O thread");
    }

    private static boolean joined(Thread t) {
        try {
            t.join();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
