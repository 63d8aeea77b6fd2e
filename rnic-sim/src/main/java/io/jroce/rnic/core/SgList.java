package io.jroce.rnic.core;

import org.agrona.DirectBuffer;

import io.jroce.verbs.AccessViolationException;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.InvalidKeyException;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;

/**
 * A scatter/gather list as copied from a work request: addresses, lengths and the regions their
 * lkeys named when posted. Copies data between the list (at a message offset) and packet buffers.
 */
final class SgList {
    private final long[] address;
    private final int[] length;
    private final int[] lkey;
    private final RegionAccess[] mr;
    private int count;
    private long total;

    SgList(int maxSge) {
        address = new long[maxSge];
        length = new int[maxSge];
        lkey = new int[maxSge];
        mr = new RegionAccess[maxSge];
    }

    /** An empty list (inline sends carry their data in the WQE). */
    void clear() {
        count = 0;
        total = 0;
    }

    int count() {
        return count;
    }

    long totalLength() {
        return total;
    }

    /**
     * Copies and validates the work request's entries: each lkey must name a region of {@code pd}
     * that holds the whole entry and grants {@code requiredAccess} (IBTA 10.6.3.1, local access
     * checks). One overload per request type rather than a lambda, so posting allocates nothing.
     */
    void load(SendWorkRequest wr, ProtectionDomain pd, KeyTable keys, int requiredAccess) {
        int n = checkCount(wr.numSge());
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += put(i, wr.sge(i), pd, keys, requiredAccess);
        }
        count = n;
        total = sum;
    }

    /** As {@link #load(SendWorkRequest, ProtectionDomain, KeyTable, int)} for a receive work request. */
    void load(ReceiveWorkRequest wr, ProtectionDomain pd, KeyTable keys, int requiredAccess) {
        int n = checkCount(wr.numSge());
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += put(i, wr.sge(i), pd, keys, requiredAccess);
        }
        count = n;
        total = sum;
    }

    /**
     * Checks that the request's entries exist before anything reads them (its total length, say):
     * {@code sgList(...)} checked them, but the array is the caller's and may have changed since.
     */
    static void checkEntries(SendWorkRequest wr) {
        for (int i = 0, n = wr.numSge(); i < n; i++) {
            checkEntry(wr.sge(i), i);
        }
    }

    private static ScatterGatherEntry checkEntry(ScatterGatherEntry e, int i) {
        if (e == null) {
            throw new InvalidAttributeException("sg_list[" + i + "] is null");
        }
        return e;
    }

    private int checkCount(int n) {
        if (n > address.length) {
            throw new InvalidAttributeException("work request has " + n + " SGEs, the queue allows " + address.length);
        }
        return n;
    }

    private long put(int i, ScatterGatherEntry e, ProtectionDomain pd, KeyTable keys, int requiredAccess) {
        checkEntry(e, i);
        long len = Integer.toUnsignedLong(e.length());
        RegionAccess region = keys.lookup(e.lkey());
        if (region == null || region.protectionDomain() != pd) {
            throw new InvalidKeyException("SGE " + i + ": lkey 0x" + Integer.toHexString(e.lkey())
                + (region == null ? " names no memory region" : " belongs to another protection domain"));
        }
        if (len > 0 && region.offsetOf(e.address(), len) < 0) {
            throw new AccessViolationException("SGE " + i + " [0x" + Long.toHexString(e.address()) + ", +" + len
                + ") lies outside " + region);
        }
        if (!region.allows(requiredAccess)) {
            throw new AccessViolationException("SGE " + i + ": " + region + " lacks LOCAL_WRITE, needed to receive data");
        }
        address[i] = e.address();
        length[i] = (int) len;
        lkey[i] = e.lkey();
        mr[i] = region;
        return len;
    }

    /** Becomes a copy of {@code o}, which has at most as many entries as this list can hold. */
    void copyFrom(SgList o) {
        System.arraycopy(o.address, 0, address, 0, o.count);
        System.arraycopy(o.length, 0, length, 0, o.count);
        System.arraycopy(o.lkey, 0, lkey, 0, o.count);
        System.arraycopy(o.mr, 0, mr, 0, o.count);
        count = o.count;
        total = o.total;
    }

    /** Whether every region is still registered under the same key (it may be deregistered after post). */
    boolean regionsValid(KeyTable keys) {
        for (int i = 0; i < count; i++) {
            if (keys.lookup(lkey[i]) != mr[i]) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code len} bytes starting at message offset {@code offset} into {@code dst}. */
    void gather(long offset, org.agrona.MutableDirectBuffer dst, int dstIndex, int len) {
        int i = 0;
        long skip = offset;
        while (len > 0) {
            if (skip >= Integer.toUnsignedLong(length[i])) {
                skip -= Integer.toUnsignedLong(length[i]);
                i++;
                continue;
            }
            int n = (int) Math.min(len, length[i] - skip);
            RegionAccess r = mr[i];
            dst.putBytes(dstIndex, r.view(), (int) (address[i] - r.address() + skip), n);
            dstIndex += n;
            len -= n;
            skip = 0;
            i++;
        }
    }

    /**
     * Copies {@code len} bytes from {@code src} to message offset {@code offset}.
     *
     * @return false when the list is too short (the caller reports a length error)
     */
    boolean scatter(long offset, DirectBuffer src, int srcIndex, int len) {
        if (offset + len > total) {
            return false;
        }
        int i = 0;
        long skip = offset;
        while (len > 0) {
            if (skip >= length[i]) {
                skip -= length[i];
                i++;
                continue;
            }
            int n = (int) Math.min(len, length[i] - skip);
            RegionAccess r = mr[i];
            r.view().putBytes((int) (address[i] - r.address() + skip), src, srcIndex, n);
            srcIndex += n;
            len -= n;
            skip = 0;
            i++;
        }
        return true;
    }

    /** Writes a 64-bit value in native byte order at message offset 0 (atomic results, as rxe). */
    void putLongNative(long value) {
        RegionAccess r = mr[0];
        r.view().putLong((int) (address[0] - r.address()), value, java.nio.ByteOrder.nativeOrder());
    }
}
