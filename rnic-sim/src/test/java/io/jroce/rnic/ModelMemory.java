package io.jroce.rnic;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

/**
 * One side's registered memory as a reliability test expects it: what it holds before the run
 * ({@link #initial}) and what it must hold after every operation executed exactly once, in order
 * ({@link #expected}). Regions are handed out by a bump allocator with random gaps; memory grows
 * as needed and new bytes are random, so a byte nobody should touch is unlikely to match by chance.
 */
final class ModelMemory {
    private final Random random;
    private byte[] initial = new byte[0];
    private byte[] expected = new byte[0];
    private ByteBuffer longs = ByteBuffer.wrap(expected);
    private int top;

    /** A piece of the memory: offset from the start of the MR, and length. */
    record Region(int offset, int length) {
        int end() {
            return offset + length;
        }

        @Override
        public String toString() {
            return offset + "+" + length;
        }
    }

    ModelMemory(Random random) {
        this.random = random;
    }

    /** A fresh region of {@code length} bytes aligned to {@code align}, after a gap of 0..31 bytes. */
    Region allocate(int length, int align) {
        int start = top + random.nextInt(32);
        start = (start + align - 1) / align * align;
        grow(start + length);
        top = start + length;
        return new Region(start, length);
    }

    private void grow(int size) {
        if (size <= initial.length) {
            return;
        }
        int capacity = Math.max(size, Math.max(64 << 10, initial.length * 2));
        int old = initial.length;
        initial = Arrays.copyOf(initial, capacity);
        byte[] fresh = new byte[capacity - old];
        random.nextBytes(fresh);
        System.arraycopy(fresh, 0, initial, old, fresh.length);
        byte[] e = Arrays.copyOf(expected, capacity);
        System.arraycopy(fresh, 0, e, old, fresh.length);
        expected = e;
        longs = ByteBuffer.wrap(expected).order(ByteOrder.nativeOrder());
    }

    /** Bytes in use, the size the MR must have. */
    int size() {
        return top;
    }

    byte[] initial() {
        return Arrays.copyOf(initial, top);
    }

    byte[] expected() {
        return Arrays.copyOf(expected, top);
    }

    /** The expected bytes of {@code regions}, concatenated (a gather). */
    byte[] gather(Iterable<Region> regions, int length) {
        byte[] out = new byte[length];
        int at = 0;
        for (Region r : regions) {
            int n = Math.min(r.length(), length - at);
            System.arraycopy(expected, r.offset(), out, at, n);
            at += n;
        }
        return out;
    }

    /** Writes {@code data} over {@code regions} in order (a scatter); bytes past the data stay. */
    void scatter(Iterable<Region> regions, byte[] data) {
        int at = 0;
        for (Region r : regions) {
            int n = Math.min(r.length(), data.length - at);
            System.arraycopy(data, at, expected, r.offset(), n);
            at += n;
        }
    }

    /** A 64-bit value in native byte order, as the responder's atomics read it (like rxe). */
    long getLong(int offset) {
        return longs.getLong(offset);
    }

    void putLong(int offset, long value) {
        longs.putLong(offset, value);
    }

    /** Sets a 64-bit value before the run: in the initial contents as well as the expected ones. */
    void initLong(int offset, long value) {
        putLong(offset, value);
        ByteBuffer.wrap(initial).order(ByteOrder.nativeOrder()).putLong(offset, value);
    }
}
