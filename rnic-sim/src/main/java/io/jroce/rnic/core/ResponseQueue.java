package io.jroce.rnic.core;

import io.jroce.stack.wire.Psn;

/**
 * A responder's responses not yet sent, in PSN order (IBTA 9.7.5: responses go out in the order of
 * their requests): RDMA READ responses still to be built, and the acknowledgements and atomic
 * acknowledgements of requests that came after them. READ responses are built a few packets at a
 * time when the {@link ResponsePacer} gives the responder its turn, from the memory at that moment;
 * an entry remembers where its READ stands (next PSN, address, bytes left), so nothing is built
 * twice and a replay restarts an entry at the PSN asked for. Acknowledgements that follow one
 * another are coalesced: an ACK covers everything before it. I/O thread only; preallocated.
 */
final class ResponseQueue {
    static final int READ = 0;
    static final int ACKNOWLEDGE = 1;
    static final int ATOMIC_ACKNOWLEDGE = 2;
    /** READs and atomics (at most max_dest_rd_atomic) with one acknowledgement between each two, and one after. */
    static final int CAPACITY = 2 * DeviceLimits.MAX_QP_RD_ATOM + 2;

    private final int[] kind = new int[CAPACITY];
    /** READ: the PSN of the first response of the series (its FIRST or ONLY); otherwise the PSN answered. */
    private final int[] firstPsn = new int[CAPACITY];
    /** READ: the PSN of the next response to build. */
    private final int[] nextPsn = new int[CAPACITY];
    private final int[] lastPsn = new int[CAPACITY];
    /** READ: the address and bytes of the next response onward. */
    private final long[] address = new long[CAPACITY];
    private final long[] remaining = new long[CAPACITY];
    private final int[] rkey = new int[CAPACITY];
    private final int[] syndrome = new int[CAPACITY];
    private final int[] msn = new int[CAPACITY];
    private final long[] original = new long[CAPACITY];
    /** ACKNOWLEDGE: a plain ACK, which a later plain ACK may replace. */
    private final boolean[] plainAck = new boolean[CAPACITY];
    private int head;
    private int size;
    /** Entries that are READs or atomics (the responder resources in use, IBTA 9.7.5.1.3). */
    private int readAtomic;

    boolean isEmpty() {
        return size == 0;
    }

    /** READs and atomics waiting to be answered. */
    int readAtomicCount() {
        return readAtomic;
    }

    void clear() {
        head = 0;
        size = 0;
        readAtomic = 0;
    }

    /** A READ answered with PSNs {@code first}..{@code last} from {@code len} bytes at {@code va}; false if full. */
    boolean addRead(int first, int last, long va, long len, int key, int msnValue) {
        int i = append(READ);
        if (i < 0) {
            return false;
        }
        set(i, first, last, va, len, key);
        msn[i] = msnValue;
        readAtomic++;
        return true;
    }

    /**
     * A duplicate READ asks again from {@code first}: a queued READ whose series holds that PSN
     * starts over from there (what it already sent is not built again); true if one did.
     */
    boolean restartRead(int first, int last, long va, long len, int key) {
        for (int n = 0; n < size; n++) {
            int i = (head + n) % CAPACITY;
            if (kind[i] == READ && Psn.compare(first, firstPsn[i]) >= 0 && Psn.compare(first, lastPsn[i]) <= 0) {
                set(i, first, last, va, len, key);
                return true;
            }
        }
        return false;
    }

    private void set(int i, int first, int last, long va, long len, int key) {
        firstPsn[i] = first;
        nextPsn[i] = first;
        lastPsn[i] = last;
        address[i] = va;
        remaining[i] = len;
        rkey[i] = key;
    }

    /**
     * An ACK, RNR NAK or NAK; a plain ACK replaces a plain ACK just before it, unless that one is of
     * a later PSN (the ACK of a duplicate of an older request): the later ACK covers both.
     */
    void addAcknowledge(int psn, int syndromeValue, int msnValue, boolean plain) {
        int tail = (head + size - 1) % CAPACITY;
        boolean coalesce = size > 0 && kind[tail] == ACKNOWLEDGE && plain && plainAck[tail];
        if (coalesce && Psn.compare(psn, firstPsn[tail]) <= 0) {
            return;
        }
        int i = coalesce ? tail : append(ACKNOWLEDGE);
        if (i < 0) {
            return; // full only under a flood of requests: the requester retries what it misses
        }
        firstPsn[i] = psn;
        syndrome[i] = syndromeValue;
        msn[i] = msnValue;
        plainAck[i] = plain;
    }

    /** An atomic's acknowledgement with the value it read; false if full. */
    boolean addAtomicAcknowledge(int psn, long originalValue, int msnValue) {
        int i = append(ATOMIC_ACKNOWLEDGE);
        if (i < 0) {
            return false;
        }
        firstPsn[i] = psn;
        original[i] = originalValue;
        msn[i] = msnValue;
        readAtomic++;
        return true;
    }

    private int append(int k) {
        if (size == CAPACITY) {
            return -1;
        }
        int i = (head + size) % CAPACITY;
        kind[i] = k;
        size++;
        return i;
    }

    // The head entry, which the responder sends from.

    int kind() {
        return kind[head];
    }

    int firstPsn() {
        return firstPsn[head];
    }

    int nextPsn() {
        return nextPsn[head];
    }

    int lastPsn() {
        return lastPsn[head];
    }

    long address() {
        return address[head];
    }

    long remaining() {
        return remaining[head];
    }

    int rkey() {
        return rkey[head];
    }

    int syndrome() {
        return syndrome[head];
    }

    int msn() {
        return msn[head];
    }

    long original() {
        return original[head];
    }

    /** The head READ sent its response at {@link #nextPsn()} with {@code payload} bytes. */
    void advance(int payload) {
        nextPsn[head] = Psn.next(nextPsn[head]);
        address[head] += payload;
        remaining[head] -= payload;
    }

    void removeHead() {
        if (kind[head] != ACKNOWLEDGE) {
            readAtomic--;
        }
        head = (head + 1) % CAPACITY;
        size--;
    }
}
