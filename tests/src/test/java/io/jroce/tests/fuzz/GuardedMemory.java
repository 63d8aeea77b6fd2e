package io.jroce.tests.fuzz;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One direct buffer holding every memory region the victim registers, each between guard bands,
 * all filled with a fixed pattern. {@link #unexpectedChanges} lists the bytes that changed where
 * no valid R_Key and range (nor a posted receive) allowed a write.
 */
final class GuardedMemory {
    static final int GUARD = 256;
    private final ByteBuffer buffer;
    private final byte[] pattern;
    private final List<Area> writable = new ArrayList<>();
    private final List<Area> areas = new ArrayList<>();

    /** A part of the buffer that a remote peer may or may not change. */
    record Area(String name, int offset, int length) {
    }

    /** @param lengths the regions' lengths, in layout order */
    GuardedMemory(int... lengths) {
        int total = GUARD;
        for (int length : lengths) {
            total += length + GUARD;
        }
        buffer = ByteBuffer.allocateDirect(total);
        pattern = new byte[total];
        new Random(0x6a726f6365L).nextBytes(pattern);
        buffer.put(0, pattern);
        int at = GUARD;
        for (int i = 0; i < lengths.length; i++) {
            areas.add(new Area("region " + i, at, lengths[i]));
            at += lengths[i] + GUARD;
        }
    }

    /** Region {@code i} as a slice to register. */
    ByteBuffer region(int i) {
        Area a = areas.get(i);
        return buffer.slice(a.offset, a.length);
    }

    /** Lets remote writes (RDMA WRITE, atomics, SENDs into posted receives) change region {@code i}. */
    void allowWrites(int i, String why) {
        Area a = areas.get(i);
        writable.add(new Area(why, a.offset, a.length));
    }

    /** Offsets of changed bytes outside every writable area, as "offset (where)" strings; at most 8. */
    List<String> unexpectedChanges() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < pattern.length && out.size() < 8; i++) {
            if (buffer.get(i) != pattern[i] && !isWritable(i)) {
                out.add(i + " (" + where(i) + ")");
            }
        }
        return out;
    }

    private boolean isWritable(int offset) {
        for (Area a : writable) {
            if (offset >= a.offset && offset < a.offset + a.length) {
                return true;
            }
        }
        return false;
    }

    private String where(int offset) {
        for (Area a : areas) {
            if (offset >= a.offset && offset < a.offset + a.length) {
                return a.name;
            }
        }
        return "guard";
    }
}
