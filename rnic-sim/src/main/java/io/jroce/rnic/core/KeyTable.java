package io.jroce.rnic.core;

import java.util.concurrent.atomic.AtomicReferenceArray;

import io.jroce.verbs.ResourceLimitException;

/**
 * Maps lkeys/rkeys to memory regions. A key is {@code index << 8 | variant}: the variant changes
 * each time an index is reused, so a stale key from a deregistered region never finds its successor.
 * Readable from any thread without locks; registration is serialised.
 */
final class KeyTable {
    private final AtomicReferenceArray<SoftMr> slots = new AtomicReferenceArray<>(DeviceLimits.MAX_MR + 1);
    private int nextIndex = 1;
    private int variant = 0x5a;

    synchronized int allocate(SoftMr mr) {
        for (int tries = 0; tries < DeviceLimits.MAX_MR; tries++) {
            int index = nextIndex;
            nextIndex = nextIndex == DeviceLimits.MAX_MR ? 1 : nextIndex + 1;
            if (slots.get(index) == null) {
                variant = (variant + 0x3b) & 0xff;
                slots.set(index, mr);
                return index << 8 | variant;
            }
        }
        throw new ResourceLimitException("all " + DeviceLimits.MAX_MR + " memory region keys are in use");
    }

    /** The region with exactly this key, or null. */
    SoftMr lookup(int key) {
        int index = key >>> 8;
        if (index == 0 || index > DeviceLimits.MAX_MR) {
            return null;
        }
        SoftMr mr = slots.get(index);
        return mr != null && mr.lkey() == key ? mr : null;
    }

    void release(int key) {
        slots.set(key >>> 8, null);
    }
}
