package io.jroce.rnic.core;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.verbs.MemoryRegion;

/** A registered memory region as the engines use it: its bytes and its access rights. */
interface RegionAccess extends MemoryRegion {
    /** The memory, indexed from 0 = {@link #address()}. */
    UnsafeBuffer view();

    /** Offset of {@code [va, va+len)} in this region, or -1 when it does not lie wholly inside. */
    long offsetOf(long va, long len);

    boolean allows(int flags);

    boolean isClosed();
}
