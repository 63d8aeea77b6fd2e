package io.jroce.rnic.core;

import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.jroce.verbs.ResourceLimitException;

/**
 * Maps lkeys/rkeys to memory regions and memory windows (one key space, as in verbs). A key is a
 * 24-bit slot tag above 8 low bits, all 32 drawn from a strong random source: a peer cannot
 * predict a key from the device, the order of registration or another device's keys. A blind
 * guess of an rkey finds a given live region with probability at most 2^-24 (a type 2 window's
 * low 8 bits are the consumer's, ibv_inc_rkey, so only its 24 upper bits are secret). Unlike rxe,
 * whose upper 24 bits are a pool index counting up and only the low 8 bits random, nothing here
 * is sequential.
 *
 * <p>The table is open addressing over the 24-bit tags with linear probing. Lookups, on the I/O
 * thread for every packet and on application threads when work requests are posted, take no lock
 * and allocate nothing; allocation and release are serialised. A released slot becomes a tombstone
 * until the next rebuild, so a lookup racing a release or an insertion still ends at an empty slot.
 */
final class KeyTable {
    /** One generator for every device: seeded once, thread-safe. */
    private static final SecureRandom STRONG = new SecureRandom();
    private static final Object TOMBSTONE = new Object();
    private static final int MIN_CAPACITY = 64;

    /** A live entry: the key's upper 24 bits and its region or window. */
    private record Slot(int tag, Object value) {
    }

    private final Random random;
    private volatile AtomicReferenceArray<Object> table = new AtomicReferenceArray<>(MIN_CAPACITY);
    /** Live slots, and live plus tombstones (guarded by this). */
    private int live;
    private int used;

    KeyTable() {
        this(STRONG);
    }

    /** A table drawing keys from {@code random} (tests only: a predictable source defeats the point). */
    KeyTable(Random random) {
        this.random = random;
    }

    /** A fresh key for {@code regionOrWindow}, never 0 and never the tag of a live key. Any thread. */
    synchronized int allocate(Object regionOrWindow) {
        if (live >= DeviceLimits.MAX_MR) {
            throw new ResourceLimitException("all " + DeviceLimits.MAX_MR + " memory region keys are in use");
        }
        if ((used + 1) * 4L > table.length() * 3L) {
            rebuild();
        }
        while (true) {
            int key = random.nextInt();
            int tag = key >>> 8;
            // Tag 0 would allow key 0; a live tag would make two keys share a slot: draw again.
            if (tag != 0 && find(table, tag) == null) {
                insert(table, new Slot(tag, regionOrWindow));
                live++;
                used++;
                return key;
            }
        }
    }

    /** The region with exactly this key, or null. */
    RegionAccess lookup(int key) {
        Object e = find(table, key >>> 8);
        return e instanceof RegionAccess mr && mr.lkey() == key ? mr : null;
    }

    /** The memory window whose current rkey is exactly this key, or null. */
    WindowAccess lookupWindow(int key) {
        Object e = find(table, key >>> 8);
        return e instanceof WindowAccess mw && mw.rkey() == key ? mw : null;
    }

    /** Whether {@code newKey} may replace {@code oldKey} of a window: same upper 24 bits, so the slot stays its own. */
    static boolean sameSlot(int oldKey, int newKey) {
        return oldKey >>> 8 == newKey >>> 8;
    }

    /** Frees the slot of {@code key} (its upper 24 bits: a window's low 8 bits may have changed since). */
    synchronized void release(int key) {
        int tag = key >>> 8;
        AtomicReferenceArray<Object> t = table;
        int mask = t.length() - 1;
        for (int i = hash(tag) & mask; ; i = (i + 1) & mask) {
            Object e = t.get(i);
            if (e == null) {
                return;
            }
            if (e instanceof Slot s && s.tag == tag) {
                t.set(i, TOMBSTONE);
                live--;
                return;
            }
        }
    }

    private static Object find(AtomicReferenceArray<Object> t, int tag) {
        int mask = t.length() - 1;
        for (int i = hash(tag) & mask; ; i = (i + 1) & mask) {
            Object e = t.get(i);
            if (e == null) {
                return null;
            }
            if (e instanceof Slot s && s.tag == tag) {
                return s.value;
            }
        }
    }

    private static void insert(AtomicReferenceArray<Object> t, Slot slot) {
        int mask = t.length() - 1;
        int i = hash(slot.tag) & mask;
        while (t.get(i) != null) {
            i = (i + 1) & mask;
        }
        t.set(i, slot);
    }

    /**
     * Copies the live slots into a table at most a quarter full, dropping tombstones, and publishes
     * it. A reader still on the old table sees a consistent, slightly older set of keys.
     */
    private void rebuild() {
        int capacity = MIN_CAPACITY;
        while (capacity < (live + 1) * 4) {
            capacity <<= 1;
        }
        AtomicReferenceArray<Object> old = table;
        AtomicReferenceArray<Object> fresh = new AtomicReferenceArray<>(capacity);
        for (int i = 0; i < old.length(); i++) {
            if (old.get(i) instanceof Slot s) {
                insert(fresh, s);
            }
        }
        used = live;
        table = fresh;
    }

    private static int hash(int tag) {
        int h = tag * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
