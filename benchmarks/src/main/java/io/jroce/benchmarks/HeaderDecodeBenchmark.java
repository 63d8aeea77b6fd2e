package io.jroce.benchmarks;

import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parses a received RC RDMA WRITE FIRST packet ({@link RocePacket#wrap}: opcode table lookup,
 * transport version, length check, extension header views) and reads the fields the responder
 * needs: opcode, destination QP, PSN, AckReq, and the RETH's address, R_Key and length.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HeaderDecodeBenchmark {
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderEncodeBenchmark.PAYLOAD + 64));
    private final RocePacket packet = new RocePacket();
    private final int length;

    public HeaderDecodeBenchmark() {
        RocePacket builder = new RocePacket();
        length = builder.build(buffer, 0, Opcode.RC_RDMA_WRITE_FIRST, HeaderEncodeBenchmark.PAYLOAD);
        builder.bth().destQp(0x11).psn(0x123456).ackRequest(true);
        builder.reth().virtualAddress(0x7f00_1234_5000L).rKey(0x1234).dmaLength(65536);
    }

    /** @return a mix of every field read, so none of the reads can be eliminated */
    @Benchmark
    public long writeFirst() {
        if (packet.wrap(buffer, 0, length) != ParseResult.OK) {
            throw new IllegalStateException("the packet does not parse");
        }
        long sum = packet.bth().opcode() + packet.bth().destQp() + packet.bth().psn()
            + (packet.bth().ackRequest() ? 1 : 0) + packet.payloadLength();
        return sum + packet.reth().virtualAddress() + packet.reth().rKey() + packet.reth().dmaLength();
    }
}
