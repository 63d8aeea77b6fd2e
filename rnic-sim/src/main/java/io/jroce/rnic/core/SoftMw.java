package io.jroce.rnic.core;

import io.jroce.verbs.ProtectionDomain;

/**
 * A memory window: an rkey onto part of a memory region (IBTA 10.6.7). Its binding is changed only
 * on the I/O thread, where remote accesses check it.
 */
final class SoftMw implements WindowAccess {
    final PdOwner pd;
    final int type;
    private volatile int rkey;
    private volatile boolean closed;
    // The binding (I/O thread).
    RegionAccess region;
    long address;
    long length;
    int access;
    /** Type 2: the QP that bound it, the only one that may use it (a type 2 window belongs to one QP). */
    QpContext boundQp;
    boolean valid;

    SoftMw(PdOwner pd, int type) {
        this.pd = pd;
        this.type = type;
    }

    void rkey(int key) {
        this.rkey = key;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public int type() {
        return type;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public void bind(int newRkey, RegionAccess mr, long bindAddress, long bindLength, int bindAccess, QpContext qp) {
        rkey = newRkey;
        region = mr;
        address = bindAddress;
        length = bindLength;
        access = bindAccess;
        boundQp = type == 2 ? qp : null;
        valid = bindLength > 0;
    }

    @Override
    public boolean isBound() {
        return valid;
    }

    @Override
    public void invalidate() {
        valid = false;
        region = null;
    }

    /** The region behind {@code [va, va+len)} if {@code qp} may access it with {@code accessNeeded}. */
    @Override
    public RegionAccess check(QpContext qp, long va, long len, int accessNeeded) {
        if (!valid || closed || region.isClosed() || (access & accessNeeded) != accessNeeded) {
            return null;
        }
        if (type == 1 ? pd != qp.pd : boundQp != qp) {
            return null;
        }
        long off = va - address;
        if (Long.compareUnsigned(off, length) > 0 || Long.compareUnsigned(len, length - off) > 0) {
            return null;
        }
        return region;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** Synchronized: two threads closing at once would both pass the check and both release the PD's use. */
    @Override
    public synchronized void close() {
        if (!closed) {
            pd.deallocWindow(this);
            closed = true;
        }
    }
}
