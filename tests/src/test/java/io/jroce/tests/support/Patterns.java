package io.jroce.tests.support;

import io.jroce.verbs.MemoryRegion;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/** Seeded random data written into and checked in registered memory. */
public final class Patterns {
    private Patterns() {
    }

    /** {@code length} bytes derived from {@code seed}. */
    public static byte[] bytes(long seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
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

    public static byte[] get(MemoryRegion mr, long offset, int length) {
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
        byte[] actual = get(mr, offset, length);
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
