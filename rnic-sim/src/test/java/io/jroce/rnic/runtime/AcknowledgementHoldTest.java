package io.jroce.rnic.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.transport.RoceTransport;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.Gid;

/**
 * Which packets an invoker-mode device holds until its turn's flush, and in which order they leave
 * ({@link AcknowledgementHold} alone, then through {@link OwnedTransport} on a {@link MemoryPipe}).
 */
class AcknowledgementHoldTest {
    private static final byte[] SRC = Gid.parse("10.0.0.1").toBytes();
    private static final byte[] DST = Gid.parse("10.0.0.2").toBytes();

    /** A packet of {@code opcode} with {@code payload} bytes; the AETH's syndrome set when it has one. */
    private static UnsafeBuffer packet(int opcode, int payload, int syndrome, int psn) {
        UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        RocePacket p = new RocePacket();
        int length = p.build(b, 0, opcode, payload);
        p.bth().psn(psn);
        if (p.info().has(ExtensionHeader.AETH)) {
            p.aeth().syndrome(syndrome);
        }
        return new UnsafeBuffer(b, 0, length);
    }

    private static UnsafeBuffer ack(int psn) {
        return packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.ack(AethSyndrome.NO_CREDIT_COUNT), psn);
    }

    @Test
    void onlyAPlainAckIsHeld() {
        assertTrue(isPlainAck(ack(1)));
        assertFalse(isPlainAck(packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), 1)), "NAK");
        assertFalse(isPlainAck(packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.rnrNak(14), 1)), "RNR NAK");
        assertFalse(isPlainAck(packet(Opcode.RC_ACKNOWLEDGE, 0, 0x80, 1)), "a reserved syndrome bit");
        assertFalse(isPlainAck(packet(Opcode.RC_ATOMIC_ACKNOWLEDGE, 0, AethSyndrome.ack(0), 1)), "atomic ACK");
        assertFalse(isPlainAck(packet(Opcode.RC_SEND_ONLY, 4, 0, 1)), "a 16-byte SEND");
        UnsafeBuffer longer = packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.ack(0), 1);
        assertFalse(AcknowledgementHold.isPlainAck(longer, 0, AcknowledgementHold.ACK_LENGTH + 4), "not 16 bytes");
    }

    @Test
    void responsesAreReadResponsesAcknowledgementsAndAtomicAcks() {
        for (int opcode = Opcode.RC_RDMA_READ_RESPONSE_FIRST; opcode <= Opcode.RC_ATOMIC_ACKNOWLEDGE; opcode++) {
            assertTrue(AcknowledgementHold.isResponse(packet(opcode, 0, 0, 1), 0), "opcode " + opcode);
        }
        for (int opcode : new int[] {Opcode.RC_SEND_ONLY, Opcode.RC_RDMA_READ_REQUEST, Opcode.RC_COMPARE_SWAP,
            Opcode.RC_FETCH_ADD}) {
            assertFalse(AcknowledgementHold.isResponse(packet(opcode, 0, 0, 1), 0), "opcode " + opcode);
        }
    }

    @Test
    void heldAcksLeaveInOrderWithTheirFramesAndTheSlotsRunOut() {
        AcknowledgementHold hold = new AcknowledgementHold();
        for (int i = 0; i < AcknowledgementHold.SLOTS; i++) {
            assertTrue(hold.hold(ack(i), 0, SRC, DST, 4791, 100 + i, i % 2 == 0));
        }
        assertFalse(hold.hold(ack(99), 0, SRC, DST, 4791, 0, false), "every slot taken: sent at once instead");
        assertFalse(new AcknowledgementHold().hold(ack(1), 0, new byte[4], DST, 4791, 0, false), "not a 16-byte address");
        Recording out = new Recording();
        hold.release(out);
        assertEquals(0, hold.held());
        assertEquals(AcknowledgementHold.SLOTS, out.psns.size());
        for (int i = 0; i < AcknowledgementHold.SLOTS; i++) {
            assertEquals(i, out.psns.get(i));
            assertEquals(i % 2 == 0 ? 100L + i : -1L, out.frames.get(i), "the event log's frame id, where one came");
        }
    }

    /**
     * Through the device's transport while an application thread polls: a request overtakes the
     * held ACK; a NAK, an RNR NAK or a READ response never does (the responder's PSN order).
     */
    @Test
    void requestsOvertakeAHeldAckAndOtherResponsesNever() {
        MemoryPipe pipe = new MemoryPipe("10.0.0.1", "10.0.0.2");
        InvokerIoContext io = new InvokerIoContext(TimeUnit.MICROSECONDS.toNanos(500), pipe.a, TimeUnit.HOURS.toNanos(1), 0);
        OwnedTransport owned = new OwnedTransport(pipe.a, io);
        try {
            io.progress(); // an application thread polls: turns defer their flush to its next call
            io.execute(() -> {
                send(owned, ack(1));
                send(owned, packet(Opcode.RC_SEND_ONLY, 64, 0, 7));
            });
            assertEquals(List.of(Opcode.RC_SEND_ONLY), pipe.a.sentOpcodes, "the request left, the ACK is held");
            io.progress();
            assertEquals(List.of(Opcode.RC_SEND_ONLY, Opcode.RC_ACKNOWLEDGE), pipe.a.sentOpcodes);

            for (UnsafeBuffer response : List.of(packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR), 3),
                packet(Opcode.RC_ACKNOWLEDGE, 0, AethSyndrome.rnrNak(14), 3),
                packet(Opcode.RC_RDMA_READ_RESPONSE_ONLY, 64, AethSyndrome.ack(0), 3),
                packet(Opcode.RC_ATOMIC_ACKNOWLEDGE, 0, AethSyndrome.ack(0), 3))) {
                pipe.a.sentOpcodes.clear();
                io.execute(() -> {
                    send(owned, ack(2));
                    send(owned, response);
                });
                assertEquals(List.of(Opcode.RC_ACKNOWLEDGE, response.getByte(0) & 0xFF), pipe.a.sentOpcodes,
                    "the held ACK went first");
            }
        } finally {
            io.close();
        }
    }

    private static boolean isPlainAck(UnsafeBuffer p) {
        return AcknowledgementHold.isPlainAck(p, 0, p.capacity());
    }

    private static void send(RoceTransport t, DirectBuffer p) {
        t.send(p, 0, p.capacity(), SRC, DST, 4791);
    }

    /** Records the PSN and frame id of what it is sent (-1: sent without a frame id). */
    private static final class Recording implements RoceTransport {
        final List<Integer> psns = new ArrayList<>();
        final List<Long> frames = new ArrayList<>();

        @Override
        public void start(RocePacketHandler handler) {
        }

        @Override
        public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort) {
            return send(packet, offset, length, srcAddress, dstAddress, dstPort, -1);
        }

        @Override
        public boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort,
                            long frame) {
            psns.add(packet.getInt(offset + 8, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFFFF);
            frames.add(frame);
            return true;
        }

        @Override
        public void flush() {
        }

        @Override
        public void joinGroup(byte[] group) {
        }

        @Override
        public void leaveGroup(byte[] group) {
        }

        @Override
        public void close() {
        }
    }
}
