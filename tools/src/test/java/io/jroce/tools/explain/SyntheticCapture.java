package io.jroce.tools.explain;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapWriter;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A capture written packet by packet with the stack's {@link PcapWriter}, for what no run makes
 * on purpose: PSNs across the 24-bit wrap, a MIDDLE without its FIRST, a bad ICRC, every NAK code.
 * A is 10.0.0.1 with QP 0x11, B is 10.0.0.2 with QP 0x12; A requests, B responds. The packets are
 * {@link #STEP_NS} apart (or as {@link #pause} says), whatever the clock did while they were written: a test on a busy machine
 * must not see a copy turn into a retransmission because the writing thread was descheduled.
 */
final class SyntheticCapture implements AutoCloseable {
    static final int A = 0x0A000001;
    static final int B = 0x0A000002;
    static final int QP_A = 0x11;
    static final int QP_B = 0x12;

    /** The time between two packets of the capture. */
    static final long STEP_NS = 1_000;

    private final Path file;
    /** Each packet's time since the first. */
    private final List<Long> times = new ArrayList<>();
    private long nextNs;
    private final PcapWriter writer;
    private final RocePacket packet = new RocePacket();
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);

    SyntheticCapture(Path file) throws IOException {
        this.file = file;
        writer = PcapWriter.create(file);
    }

    /** A request of A's: {@code opcode} with {@code payload} bytes. */
    SyntheticCapture request(int opcode, int psn, int payload, boolean ackReq) {
        int length = packet.build(buffer, 0, opcode, payload);
        packet.bth().destQp(QP_B).psn(psn).ackRequest(ackReq).partitionKey(0xFFFF);
        return write(A, B, length, false);
    }

    /** B's acknowledgement of {@code psn} with {@code syndrome}. */
    SyntheticCapture ack(int psn, int msn, int syndrome) {
        int length = packet.build(buffer, 0, Opcode.RC_ACKNOWLEDGE, 0);
        packet.bth().destQp(QP_A).psn(psn).partitionKey(0xFFFF);
        packet.aeth().syndrome(syndrome).msn(msn);
        return write(B, A, length, false);
    }

    SyntheticCapture ack(int psn, int msn) {
        return ack(psn, msn, AethSyndrome.NO_CREDIT_COUNT);
    }

    /** A's RDMA READ request of {@code length} bytes at {@code va}. */
    SyntheticCapture read(int psn, long va, int rKey, int length) {
        int size = packet.build(buffer, 0, Opcode.RC_RDMA_READ_REQUEST, 0);
        packet.bth().destQp(QP_B).psn(psn).ackRequest(true).partitionKey(0xFFFF);
        packet.reth().virtualAddress(va).rKey(rKey).dmaLength(length);
        return write(A, B, size, false);
    }

    /** B's READ response {@code opcode} with {@code payload} bytes; its AETH, when it has one, an ACK of MSN {@code msn}. */
    SyntheticCapture readResponse(int opcode, int psn, int payload, int msn) {
        int length = packet.build(buffer, 0, opcode, payload);
        packet.bth().destQp(QP_A).psn(psn).partitionKey(0xFFFF);
        if (packet.info().has(ExtensionHeader.AETH)) {
            packet.aeth().syndrome(AethSyndrome.NO_CREDIT_COUNT).msn(msn);
        }
        return write(B, A, length, false);
    }

    /** A request whose ICRC is one off what its bytes call for. */
    SyntheticCapture corruptRequest(int opcode, int psn, int payload) {
        int length = packet.build(buffer, 0, opcode, payload);
        packet.bth().destQp(QP_B).psn(psn).partitionKey(0xFFFF);
        return write(A, B, length, true);
    }

    private SyntheticCapture write(int src, int dst, int length, boolean badIcrc) {
        int crc = icrc.computeIpv4(src, dst, 0, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791, buffer, 0, length);
        writer.ipv4(src, dst, 0, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791, buffer, 0, length, badIcrc ? crc + 1 : crc);
        times.add(nextNs);
        nextNs += STEP_NS;
        return this;
    }

    /** The next packet comes {@code ns} later than it would have. */
    SyntheticCapture pause(long ns) {
        nextNs += ns;
        return this;
    }

    @Override
    public void close() throws IOException {
        writer.close();
        retime();
    }

    /** Sets each record's timestamp (classic pcap, nanoseconds: 16-byte record headers after 24 bytes) to its place. */
    private void retime() throws IOException {
        ByteBuffer pcap = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        long startSec = pcap.getInt(24);
        int at = 24;
        for (long t : times) {
            pcap.putInt(at, (int) (startSec + t / 1_000_000_000L));
            pcap.putInt(at + 4, (int) (t % 1_000_000_000L));
            at += 16 + pcap.getInt(at + 8);
        }
        Files.write(file, pcap.array());
    }
}
