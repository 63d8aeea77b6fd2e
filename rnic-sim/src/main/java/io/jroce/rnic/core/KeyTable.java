package io.jroce.rnic.core;

import java.util.concurrent.atomic.AtomicReferenceArray;

import io.jroce.verbs.ResourceLimitException;

/**
 * Maps lkeys/rkeys to memory regions and memory windows (one key space, as in verbs). A key is {@code index << 8 | variant}: the variant changes
 * each time an index is reused, so a stale key from a deregistered region never finds its successor.
 * Readable from any thread without locks; registration is serialised.
 */
final class KeyTable {
    private final AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(DeviceLimits.MAX_MR + 1);
    private int nextIndex = 1;
    private int variant = 0x5a;

    synchronized int allocate(Object regionOrWindow) {
        for (int tries = 0; tries < DeviceLimits.MAX_MR; tries++) {
            int index = nextIndex;
            nextIndex = nextIndex == DeviceLimits.MAX_MR ? 1 : nextIndex + 1;
            if (slots.get(index) == null) {
                variant = (variant + 0x3b) & 0xff;
                slots.set(index, regionOrWindow);
                return index << 8 | variant;
            }
        }
        throw new ResourceLimitException("all " + DeviceLimits.MAX_MR + " memory region keys are in use");
    }

    /** The region with exactly this key, or null. */
    RegionAccess lookup(int key) {
        Object e = entry(key);
        return e instanceof RegionAccess mr && mr.lkey() == key ? mr : null;
    }

    /** The memory window whose current rkey is exactly this key, or null. */
    WindowAccess lookupWindow(int key) {
        Object e = entry(key);
        return e instanceof WindowAccess mw && mw.rkey() == key ? mw : null;
    }

    private Object entry(int key) {
        int index = key >>> 8;
        return index == 0 || index > DeviceLimits.MAX_MR ? null : slots.get(index);
    }

    /** Whether {@code newKey} may replace {@code oldKey} of a window: same index, so the slot stays its own. */
    static boolean sameSlot(int oldKey, int newKey) {
        return oldKey >>> 8 == newKey >>> 8;
    }

    void release(int key) {
        slots.set(key >>> 8, null);
    }
}
