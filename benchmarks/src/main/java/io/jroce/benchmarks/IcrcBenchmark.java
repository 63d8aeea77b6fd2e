package io.jroce.benchmarks;

import io.jroce.stack.icrc.IcrcCalculator;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ICRC of one IPv4 RoCEv2 packet of {@link #size} bytes (BTH to the end of the payload, the
 * bytes the CRC covers after the masked pseudo-header), as {@code UdpTransport} computes it on send
 * and checks it on receive. The primary score is packets per second; the {@code gigabytes}
 * secondary score counts packet bytes in units of 10^9, so its "ops/s" is GB/s.
 *
 * <p>{@link #buffer} {@code direct} is the transport's case (a pooled direct Netty buffer),
 * {@code heap} a byte array (as when a packet was copied out of a composite buffer).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IcrcBenchmark {
    static final int SRC = 0x7f000001;
    static final int DST = 0x7f000002;
    static final int PORT = 4791;

    @Param({"64", "1024", "4096"})
    public int size;

    @Param({"direct", "heap"})
    public String buffer;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private UnsafeBuffer packet;
    private int length;

    /** Bytes checked, reported per second by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        /** Packet bytes / 10^9: its rate is GB/s. */
        public double gigabytes;

        @Setup(Level.Iteration)
        public void reset() {
            gigabytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        byte[] bytes = new byte[size];
        new SplittableRandom(size).nextBytes(bytes);
        bytes[0] = 0x04; // RC SEND ONLY, the rest random: the CRC does not care what the bytes mean
        use(bytes, bytes.length, "direct".equals(buffer));
    }

    /** Points the benchmark at {@code roce} (BTH onwards, without ICRC), copied off-heap or not. */
    void use(byte[] roce, int roceLength, boolean direct) {
        if (direct) {
            ByteBuffer b = ByteBuffer.allocateDirect(roceLength);
            b.put(roce, 0, roceLength).clear();
            packet = new UnsafeBuffer(b);
        } else {
            packet = new UnsafeBuffer(roce.clone());
        }
        length = roceLength;
    }

    @Benchmark
    public int ipv4(Bytes bytes) {
        bytes.gigabytes += length * 1e-9;
        return icrc.computeIpv4(SRC, DST, 0, IcrcCalculator.IPV4_FLAGS_DF, PORT, PORT, packet, 0, length);
    }

    /** The ICRC for explicit IP/UDP header fields; for the smoke test's captured packet. */
    int ipv4(int src, int dst, int ipId, int flags, int srcPort, int dstPort) {
        return icrc.computeIpv4(src, dst, ipId, flags, srcPort, dstPort, packet, 0, length);
    }
}
