package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RocePacketTest {
    /** rxe-rping.pcap frame 6: READ request, BTH + RETH. */
    private static final String CAPTURED_READ_REQUEST =
        "0c00ffff00000011808e0e63" + "0000558bfecb83700000050a00000040";
    /** rxe-rping.pcap frame 7: its READ response only, BTH + AETH + 64 bytes of rping's buffer. */
    private static final String CAPTURED_READ_RESPONSE = "1000ffff00000011008e0e63" + "1f000001"
        + "72646d612d70696e672d303a204142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f6061626364"
        + "65666768696a6b6c6d6e6f70717200";
    /** rxe-atomic_cmp.pcap frame 21: ATOMIC ACKNOWLEDGE, BTH + AETH + AtomicAckETH. */
    private static final String CAPTURED_ATOMIC_ACK = "1200ffff0000001100f0134c" + "1f000001" + "60c5fab64704b5f7";
    /** rxe-rping.pcap frame 1: BTH + DETH of a CM ConnectRequest MAD to QP1 (payload left out). */
    private static final String CAPTURED_MAD_HEADERS = "6400ffff0000000180000000" + "8001000000000001";

    private final RocePacket packet = new RocePacket();

    static Stream<OpcodeInfo> everyOpcode() {
        return OpcodeTable.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyOpcode")
    void everyOpcodeRoundTripsThroughItsSettersAndGetters(OpcodeInfo info) {
        int[] payloadLengths = info.hasPayload() ? new int[] {0, 1, 2, 3, 4, 1021} : new int[] {0};
        for (int payloadLength : payloadLengths) {
            UnsafeBuffer out = new UnsafeBuffer(new byte[2048]);
            out.setMemory(0, out.capacity(), (byte) 0xA5); // stale bytes that build() must clear
            int offset = 5;
            RocePacket builder = new RocePacket();

            int length = builder.build(out, offset, info.opcode(), payloadLength);
            fill(builder, info.opcode());
            for (int i = 0; i < payloadLength; i++) {
                out.putByte(builder.payloadOffset() + i, (byte) i);
            }

            String where = info.name() + " payload " + payloadLength;
            int pad = RoceV2.padCount(payloadLength);
            assertEquals(info.headerLength() + payloadLength + pad, length, where);
            for (int i = 0; i < pad; i++) {
                assertEquals(0, out.getByte(offset + length - pad + i), where + " pad byte");
            }
            // Read it back from a copy, so nothing the builder holds can help.
            byte[] wire = new byte[length];
            out.getBytes(offset, wire);
            assertEquals(ParseResult.OK, packet.wrap(new UnsafeBuffer(wire), 0, length), where);
            assertSame(info, packet.info());
            assertEquals(payloadLength, packet.payloadLength(), where);
            assertEquals(pad, packet.bth().padCount(), where);
            assertEquals(info.headerLength(), packet.payloadOffset(), where);
            for (int i = 0; i < payloadLength; i++) {
                assertEquals((byte) i, packet.buffer().getByte(packet.payloadOffset() + i), where);
            }
            check(packet, info.opcode(), where);
        }
    }

    /** Distinct values per opcode and per field, with the top bits set to catch missing masks and sign errors. */
    private static void fill(RocePacket p, int opcode) {
        OpcodeInfo info = p.info();
        long v = 0x8101010101010101L * (opcode + 1);
        p.bth().solicitedEvent(true).migReq(true).partitionKey(0x8000 | opcode).destQp(0xF00000 | opcode)
            .ackRequest(info.isRequest()).psn(0xFFFF00 | opcode);
        if (info.has(ExtensionHeader.DETH)) {
            p.deth().qKey((int) v).sourceQp(0x800000 | opcode);
        }
        if (info.has(ExtensionHeader.RETH)) {
            p.reth().virtualAddress(v).rKey((int) (v >>> 8)).dmaLength(0x80000000L | opcode);
        }
        if (info.has(ExtensionHeader.ATOMIC_ETH)) {
            p.atomicEth().virtualAddress(v).rKey((int) (v >>> 16)).swapAddData(~v).compareData(v >>> 1);
        }
        if (info.has(ExtensionHeader.AETH)) {
            p.aeth().nak(0xFFFFFF - opcode, NakCode.REMOTE_OPERATIONAL_ERROR);
        }
        if (info.has(ExtensionHeader.ATOMIC_ACK_ETH)) {
            p.atomicAckEth().originalRemoteData(v + 1);
        }
        if (info.has(ExtensionHeader.IMM_DT)) {
            p.immDt().immediateData((int) (v >>> 24));
        }
        if (info.has(ExtensionHeader.IETH)) {
            p.ieth().rKey((int) (v >>> 32));
        }
    }

    private static void check(RocePacket p, int opcode, String where) {
        OpcodeInfo info = p.info();
        long v = 0x8101010101010101L * (opcode + 1);
        BthFlyweight bth = p.bth();
        assertEquals(opcode, bth.opcode(), where);
        assertTrue(bth.solicitedEvent(), where);
        assertTrue(bth.migReq(), where);
        assertEquals(0, bth.transportVersion(), where);
        assertEquals(0x8000 | opcode, bth.partitionKey(), where);
        assertEquals(0, bth.reservedByte(), where);
        assertEquals(0xF00000 | opcode, bth.destQp(), where);
        assertEquals(info.isRequest(), bth.ackRequest(), where);
        assertEquals(0, bth.reserved7(), where);
        assertEquals(0xFFFF00 | opcode, bth.psn(), where);
        if (info.has(ExtensionHeader.DETH)) {
            assertEquals((int) v, p.deth().qKey(), where);
            assertEquals(0x800000 | opcode, p.deth().sourceQp(), where);
            assertEquals(p.offset() + info.offset(ExtensionHeader.DETH), p.deth().offset(), where);
        }
        if (info.has(ExtensionHeader.RETH)) {
            assertEquals(v, p.reth().virtualAddress(), where);
            assertEquals((int) (v >>> 8), p.reth().rKey(), where);
            assertEquals(0x80000000L | opcode, p.reth().dmaLength(), where);
            assertEquals(p.offset() + info.offset(ExtensionHeader.RETH), p.reth().offset(), where);
        }
        if (info.has(ExtensionHeader.ATOMIC_ETH)) {
            assertEquals(v, p.atomicEth().virtualAddress(), where);
            assertEquals((int) (v >>> 16), p.atomicEth().rKey(), where);
            assertEquals(~v, p.atomicEth().swapAddData(), where);
            assertEquals(v >>> 1, p.atomicEth().compareData(), where);
        }
        if (info.has(ExtensionHeader.AETH)) {
            assertEquals(AethKind.NAK, p.aeth().kind(), where);
            assertEquals(NakCode.REMOTE_OPERATIONAL_ERROR, p.aeth().nakCode(), where);
            assertEquals(0xFFFFFF - opcode, p.aeth().msn(), where);
        }
        if (info.has(ExtensionHeader.ATOMIC_ACK_ETH)) {
            assertEquals(v + 1, p.atomicAckEth().originalRemoteData(), where);
        }
        if (info.has(ExtensionHeader.IMM_DT)) {
            assertEquals((int) (v >>> 24), p.immDt().immediateData(), where);
            assertEquals(p.offset() + info.offset(ExtensionHeader.IMM_DT), p.immDt().offset(), where);
        }
        if (info.has(ExtensionHeader.IETH)) {
            assertEquals((int) (v >>> 32), p.ieth().rKey(), where);
        }
    }

    @Test
    void buildsTheCapturedReadRequestByteForByte() {
        UnsafeBuffer out = new UnsafeBuffer(new byte[64]);

        int length = packet.build(out, 0, Opcode.RC_RDMA_READ_REQUEST, 0);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(0x11).ackRequest(true).psn(9309795);
        packet.reth().virtualAddress(0x0000558bfecb8370L).rKey(0x50a).dmaLength(64);

        assertEquals(CAPTURED_READ_REQUEST, Hex.of(out, 0, length));
    }

    @Test
    void buildsTheCapturedAtomicAcknowledgeByteForByte() {
        UnsafeBuffer out = new UnsafeBuffer(new byte[64]);

        int length = packet.build(out, 0, Opcode.RC_ATOMIC_ACKNOWLEDGE, 0);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(0x11).psn(0xf0134c);
        packet.aeth().ack(1, AethSyndrome.NO_CREDIT_COUNT);
        packet.atomicAckEth().originalRemoteData(0x60c5fab64704b5f7L);

        assertEquals(CAPTURED_ATOMIC_ACK, Hex.of(out, 0, length));
    }

    @Test
    void buildsTheCapturedMadHeadersByteForByte() {
        UnsafeBuffer out = new UnsafeBuffer(new byte[512]);

        int length = packet.build(out, 0, Opcode.UD_SEND_ONLY, 256);
        packet.bth().partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(1).ackRequest(true).psn(0);
        packet.deth().qKey(DethFlyweight.GSI_Q_KEY).sourceQp(1);

        assertEquals(20 + 256, length);
        assertEquals(CAPTURED_MAD_HEADERS, Hex.of(out, 0, 20));
    }

    @Test
    void readsTheCapturedReadResponse() {
        byte[] wire = Hex.bytes(CAPTURED_READ_RESPONSE);

        assertEquals(ParseResult.OK, packet.wrap(new UnsafeBuffer(wire), 0, wire.length));

        assertEquals(Opcode.RC_RDMA_READ_RESPONSE_ONLY, packet.info().opcode());
        assertEquals(9309795, packet.bth().psn());
        assertEquals(AethKind.ACK, packet.aeth().kind());
        assertEquals(1, packet.aeth().msn());
        assertEquals(16, packet.payloadOffset());
        assertEquals(64, packet.payloadLength());
        byte[] payload = new byte[packet.payloadLength()];
        packet.buffer().getBytes(packet.payloadOffset(), payload);
        assertTrue(new String(payload, StandardCharsets.US_ASCII).startsWith("rdma-ping-0: ABCDEF"));
    }

    @Test
    void refusesPacketsThatDoNotHoldWhatTheirOpcodeSays() {
        UnsafeBuffer b = new UnsafeBuffer(Hex.bytes(CAPTURED_READ_REQUEST + "00000000"));

        assertEquals(ParseResult.TRUNCATED, packet.wrap(b, 0, 11));
        assertNull(packet.info());
        assertEquals(ParseResult.TRUNCATED, packet.wrap(b, 0, 27), "RETH cut short");
        assertEquals(ParseResult.OK, packet.wrap(b, 0, 28));

        b.putByte(0, (byte) 0x15);
        assertEquals(ParseResult.UNKNOWN_OPCODE, packet.wrap(b, 0, 28));
        assertNull(packet.info());
        b.putByte(0, (byte) 0x44);
        assertEquals(ParseResult.UNKNOWN_OPCODE, packet.wrap(b, 0, 28), "RD SEND ONLY");

        b.putByte(0, (byte) Opcode.RC_RDMA_READ_REQUEST);
        b.putByte(1, (byte) 0x01);
        assertEquals(ParseResult.BAD_TRANSPORT_VERSION, packet.wrap(b, 0, 28));

        b.putByte(0, (byte) Opcode.RC_SEND_ONLY);
        b.putByte(1, (byte) 0x30);
        assertEquals(ParseResult.TRUNCATED, packet.wrap(b, 0, 14), "pad count 3 with 2 bytes after the BTH");
        assertEquals(ParseResult.OK, packet.wrap(b, 0, 16));
        assertEquals(1, packet.payloadLength());
    }

    /**
     * The pad count must bring payload + pad to a multiple of 4 (IBTA Vol. 1 9.2, PadCnt): with
     * every opcode's header a whole number of words, any other count leaves a packet whose length
     * no conforming sender produces. Each wrong count for payloads of 0..8 bytes is refused, the
     * one right count passes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyOpcode")
    void aPadCountThatDoesNotAlignThePayloadIsRefused(OpcodeInfo info) {
        int maxPayload = info.hasPayload() ? 8 : 0;
        for (int payload = 0; payload <= maxPayload; payload++) {
            for (int pad = 0; pad <= 3; pad++) {
                int length = info.headerLength() + payload + pad;
                UnsafeBuffer b = new UnsafeBuffer(new byte[length]);
                new BthFlyweight().wrap(b, 0).opcode(info.opcode()).padCount(pad);
                String where = info.name() + " payload " + payload + " pad " + pad;
                if (pad == (-payload & 3)) {
                    assertEquals(ParseResult.OK, packet.wrap(b, 0, length), where);
                    assertEquals(payload, packet.payloadLength(), where);
                } else {
                    assertEquals(ParseResult.BAD_PAD, packet.wrap(b, 0, length), where);
                    assertNull(packet.info(), where);
                }
            }
        }
    }

    @Test
    void buildRefusesAnUnknownOpcode() {
        assertThrows(IllegalArgumentException.class, () -> packet.build(new UnsafeBuffer(new byte[64]), 0, 0x15, 0));
    }

    @Test
    void parsingAllocatesNothing() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        UnsafeBuffer[] packets = {
            new UnsafeBuffer(Hex.bytes(CAPTURED_READ_REQUEST)),
            new UnsafeBuffer(Hex.bytes(CAPTURED_READ_RESPONSE)),
            new UnsafeBuffer(Hex.bytes(CAPTURED_ATOMIC_ACK)),
            new UnsafeBuffer(Hex.bytes(CAPTURED_MAD_HEADERS)),
        };
        long sink = parseAll(packets, 20_000); // warm up

        long before = threads.getCurrentThreadAllocatedBytes();
        sink += parseAll(packets, 100_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(sink != 0);
        assertTrue(allocated < 1024, allocated + " bytes allocated for 400,000 packets");
    }

    private long parseAll(UnsafeBuffer[] packets, int rounds) {
        long sink = 0;
        for (int i = 0; i < rounds; i++) {
            for (UnsafeBuffer b : packets) {
                if (packet.wrap(b, 0, b.capacity()) == ParseResult.OK) {
                    OpcodeInfo info = packet.info();
                    sink += packet.bth().psn() + packet.payloadLength() + info.headerLength();
                    if (info.has(ExtensionHeader.AETH)) {
                        sink += packet.aeth().kind().ordinal() + packet.aeth().msn();
                    }
                    if (info.has(ExtensionHeader.RETH)) {
                        sink += packet.reth().virtualAddress();
                    }
                    if (info.has(ExtensionHeader.DETH)) {
                        sink += packet.deth().qKey();
                    }
                    if (info.has(ExtensionHeader.ATOMIC_ACK_ETH)) {
                        sink += packet.atomicAckEth().originalRemoteData();
                    }
                }
            }
        }
        return sink;
    }
}
