package io.jroce.testsupport;

import io.jroce.verbs.MemoryRegion;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Data written into and checked in registered memory: seeded random bytes ({@link #bytes}), and the
 * arithmetic pattern that {@code interop/rxe-image/peer/rc_ops_peer.c} writes and checks on the rxe
 * side ({@link #pattern}), so that both ends of an interop test compute the same bytes.
 */
public final class Patterns {
    /** What {@link #pattern} gives for a negative seed: memory that no transfer has touched. */
    public static final byte UNTOUCHED = (byte) 0xEE;

    private Patterns() {
    }

    /** {@code length} bytes derived from {@code seed}. */
    public static byte[] bytes(long seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    /**
     * Bytes {@code [from, from + length)} of rc_ops_peer.c's pattern:
     * {@code (seed + 7 i + (i >> 8)) & 0xff} for byte {@code i}, or {@link #UNTOUCHED} everywhere for
     * a negative seed. Taking {@code from} lets a test name the bytes at an offset of a filled buffer.
     */
    public static byte[] pattern(int seed, int from, int length) {
        byte[] b = new byte[length];
        for (int k = 0; k < length; k++) {
            long i = from + k;
            b[k] = seed < 0 ? UNTOUCHED : (byte) (seed + 7 * i + (i >> 8));
        }
        return b;
    }

    /** Writes {@link #pattern}{@code (seed, offset, length)} into {@code mr} at {@code offset}, as rc_ops_peer's FILL does. */
    public static void fillPattern(MemoryRegion mr, int offset, int length, int seed) {
        mr.buffer().put(offset, pattern(seed, offset, length));
    }

    /** {@code length} bytes of {@code value}. */
    public static byte[] constant(int value, int length) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    /** Writes {@code data} into {@code mr} at {@code offset}. */
    public static void put(MemoryRegion mr, long offset, byte[] data) {
        ByteBuffer buf = mr.buffer();
        buf.put(Math.toIntExact(offset), data);
    }

    /** Fills {@code length} bytes of {@code mr} at {@code offset} with seeded data and returns them. */
    public static byte[] fill(MemoryRegion mr, long offset, int length, long seed) {
        byte[] data = bytes(seed, length);
        put(mr, offset, data);
        return data;
    }

    /** A copy of {@code length} bytes of {@code mr} at {@code offset}. */
    public static byte[] bytes(MemoryRegion mr, long offset, int length) {
        byte[] out = new byte[length];
        mr.buffer().get(Math.toIntExact(offset), out);
        return out;
    }

    /** Asserts that {@code mr} holds {@code expected} at {@code offset}, naming the first difference. */
    public static void assertRegion(MemoryRegion mr, long offset, byte[] expected, String what) {
        assertRegion(mr, offset, expected, 0, expected.length, what);
    }

    /** Asserts that {@code mr} at {@code offset} holds {@code expected[from, from+length)}. */
    public static void assertRegion(MemoryRegion mr, long offset, byte[] expected, int from, int length, String what) {
        byte[] actual = bytes(mr, offset, length);
        for (int i = 0; i < length; i++) {
            if (actual[i] != expected[from + i]) {
                int differing = 0;
                for (int j = i; j < length; j++) {
                    if (actual[j] != expected[from + j]) {
                        differing++;
                    }
                }
                fail(what + ": first difference at byte " + i + " of " + length + " (expected 0x"
                    + Integer.toHexString(expected[from + i] & 0xff) + ", got 0x" + Integer.toHexString(actual[i] & 0xff)
                    + "); " + differing + " bytes differ from there on");
            }
        }
    }
}
