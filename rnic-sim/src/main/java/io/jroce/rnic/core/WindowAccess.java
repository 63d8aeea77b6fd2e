package io.jroce.rnic.core;

import io.jroce.verbs.MemoryWindow;

/** A memory window as the engines use it: bound, checked and invalidated on the I/O thread (IBTA 10.6.7). */
interface WindowAccess extends MemoryWindow {
    /** True while a binding of non-zero length is in force (a type 2 window until it is invalidated). */
    boolean isBound();

    boolean isClosed();

    void bind(int newRkey, RegionAccess mr, long address, long length, int access, QpContext qp);

    void invalidate();

    /** The region behind {@code [va, va+len)} if {@code qp} may access it with {@code accessNeeded}, else null. */
    RegionAccess check(QpContext qp, long va, long len, int accessNeeded);
}
