package io.jroce.rnic.core;

import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.ProtectionDomain;

/**
 * A memory window: an rkey onto part of a memory region (IBTA 10.6.7). Its binding is changed only
 * on the I/O thread, where remote accesses check it.
 */
final class SoftMw implements MemoryWindow {
    final SoftPd pd;
    final int type;
    private volatile int rkey;
    private volatile boolean closed;
    // The binding (I/O thread).
    SoftMr region;
    long address;
    long length;
    int access;
    /** Type 2: the QP that bound it, the only one that may use it (IBTA 10.6.7.2.? C10-?). */
    SoftQp boundQp;
    boolean valid;

    SoftMw(SoftPd pd, int type) {
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

    void bind(int newRkey, SoftMr mr, long bindAddress, long bindLength, int bindAccess, SoftQp qp) {
        rkey = newRkey;
        region = mr;
        address = bindAddress;
        length = bindLength;
        access = bindAccess;
        boundQp = type == 2 ? qp : null;
        valid = bindLength > 0;
    }

    void invalidate() {
        valid = false;
        region = null;
    }

    /** The region behind {@code [va, va+len)} if {@code qp} may access it with {@code accessNeeded}. */
    SoftMr check(SoftQp qp, long va, long len, int accessNeeded) {
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

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            pd.deallocWindow(this);
            closed = true;
        }
    }
}
