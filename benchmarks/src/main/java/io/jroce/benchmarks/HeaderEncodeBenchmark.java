package io.jroce.benchmarks;

import io.jroce.stack.wire.Opcode;
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
 * Lays out the headers of an RC RDMA WRITE FIRST packet (BTH + RETH, 4096-byte payload) in a
 * reused off-heap buffer, as the requester does for the first packet of every multi-packet WRITE.
 * The payload copy is not part of it: that is the DMA gather, measured by the data-path benchmarks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HeaderEncodeBenchmark {
    static final int PAYLOAD = 4096;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(PAYLOAD + 64));
    private final RocePacket packet = new RocePacket();
    private int psn;

    /** @return the packet length (BTH to the end of the payload), so the work cannot be eliminated */
    @Benchmark
    public int writeFirst() {
        int length = packet.build(buffer, 0, Opcode.RC_RDMA_WRITE_FIRST, PAYLOAD);
        psn = (psn + 1) & 0xFF_FFFF;
        packet.bth().destQp(0x11).psn(psn).ackRequest(false);
        packet.reth().virtualAddress(0x7f00_1234_5000L).rKey(0x1234).dmaLength(65536);
        return length;
    }

    /** The buffer the last {@link #writeFirst} built into; for the smoke test. */
    UnsafeBuffer buffer() {
        return buffer;
    }
}
