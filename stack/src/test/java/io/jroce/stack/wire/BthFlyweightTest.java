package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class BthFlyweightTest {
    /** rxe-rping.pcap frame 6: RC RDMA READ request, QP 0x11, AckReq, PSN 9309795. */
    private static final String READ_REQUEST_BTH = "0c 00 ff ff 00 00 00 11 80 8e 0e 63";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final BthFlyweight bth = new BthFlyweight();

    @Test
    void readsTheBthOfACapturedPacket() {
        bth.wrap(new UnsafeBuffer(Hex.bytes(READ_REQUEST_BTH)), 0);

        assertEquals(Opcode.RC_RDMA_READ_REQUEST, bth.opcode());
        assertFalse(bth.solicitedEvent());
        assertFalse(bth.migReq());
        assertEquals(0, bth.padCount());
        assertEquals(0, bth.transportVersion());
        assertEquals(0xFFFF, bth.partitionKey());
        assertEquals(0, bth.reservedByte());
        assertEquals(0x11, bth.destQp());
        assertTrue(bth.ackRequest());
        assertEquals(0, bth.reserved7());
        assertEquals(9309795, bth.psn());
    }

    @Test
    void writesTheBytesRxeSent() {
        int offset = 5;
        bth.wrap(buffer, offset).clear()
            .opcode(Opcode.RC_RDMA_READ_REQUEST)
            .partitionKey(BthFlyweight.DEFAULT_P_KEY)
            .destQp(0x11)
            .ackRequest(true)
            .psn(9309795);

        assertEquals(READ_REQUEST_BTH.replace(" ", ""), Hex.of(buffer, offset, BthFlyweight.LENGTH));
        assertEquals(0, buffer.getByte(offset - 1));
        assertEquals(0, buffer.getByte(offset + BthFlyweight.LENGTH));
    }

    @Test
    void everyFieldRoundTripsAtItsMaximum() {
        bth.wrap(buffer, 3).clear()
            .opcode(0xFF).solicitedEvent(true).migReq(true).padCount(3).transportVersion(0xF)
            .partitionKey(0xFFFF).reservedByte(0x3F).fecn(true).becn(true).destQp(0xFFFFFF).ackRequest(true).reserved7(0x7F)
            .psn(0xFFFFFF);

        assertEquals("ff ff ff ff ff ff ff ff ff ff ff ff".replace(" ", ""), Hex.of(buffer, 3, 12));
        assertEquals(0xFF, bth.opcode());
        assertTrue(bth.solicitedEvent());
        assertTrue(bth.migReq());
        assertEquals(3, bth.padCount());
        assertEquals(0xF, bth.transportVersion());
        assertEquals(0xFFFF, bth.partitionKey());
        assertEquals(0xFF, bth.reservedByte());
        assertEquals(0xFFFFFF, bth.destQp());
        assertEquals(0x7F, bth.reserved7());
        assertEquals(0xFFFFFF, bth.psn());
    }

    @Test
    void eachSetterTouchesOnlyItsOwnBits() {
        bth.wrap(buffer, 0).clear();

        bth.solicitedEvent(true);
        assertEquals("80", Hex.of(buffer, 1, 1), "se");
        bth.solicitedEvent(false).migReq(true);
        assertEquals("40", Hex.of(buffer, 1, 1), "mig");
        bth.migReq(false).padCount(2);
        assertEquals("20", Hex.of(buffer, 1, 1), "pad");
        bth.padCount(0).transportVersion(1);
        assertEquals("01", Hex.of(buffer, 1, 1), "tver");
        bth.transportVersion(0).fecn(true);
        assertEquals("80000000", Hex.of(buffer, 4, 4), "fecn");
        bth.fecn(false).becn(true);
        assertEquals("40000000", Hex.of(buffer, 4, 4), "becn");
        bth.becn(false).ackRequest(true);
        assertEquals("80000000", Hex.of(buffer, 8, 4), "ackreq");
        bth.ackRequest(false).reserved7(0x55);
        assertEquals("55000000", Hex.of(buffer, 8, 4), "resv7");
        bth.reserved7(0);
        assertEquals("000000000000000000000000", Hex.of(buffer, 0, 12));
    }

    @Test
    void twentyFourBitFieldsAreMaskedAndKeepTheirFlagByte() {
        bth.wrap(buffer, 0).clear().fecn(true).ackRequest(true);

        bth.destQp(0xAB123456).psn(-1);

        assertEquals(0x123456, bth.destQp());
        assertTrue(bth.fecn());
        assertEquals(0xFFFFFF, bth.psn());
        assertTrue(bth.ackRequest());
        assertEquals(0, bth.reserved7());
        assertEquals("80123456", Hex.of(buffer, 4, 4));
        assertEquals("80ffffff", Hex.of(buffer, 8, 4));
    }

    @Test
    void multiByteFieldsAreBigEndian() {
        bth.wrap(buffer, 0).clear().partitionKey(0x1234).destQp(0x010203).psn(0x040506);

        assertEquals("000012340001020300040506", Hex.of(buffer, 0, 12));
    }

    @Test
    void wrapChecksTheHeaderFitsInTheBuffer() {
        UnsafeBuffer small = new UnsafeBuffer(new byte[BthFlyweight.LENGTH + 2]);

        bth.wrap(small, 2);
        assertThrows(IndexOutOfBoundsException.class, () -> bth.wrap(small, 3));
    }

    @Test
    void aReadOnlyBufferCanBeReadButNotWritten() {
        UnsafeBuffer backing = new UnsafeBuffer(Hex.bytes(READ_REQUEST_BTH));
        DirectBuffer readOnly = (DirectBuffer) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DirectBuffer.class}, (proxy, method, args) -> method.invoke(backing, args));

        bth.wrap(readOnly, 0);

        assertEquals(9309795, bth.psn());
        assertThrows(IllegalStateException.class, () -> bth.psn(1));
    }
}
