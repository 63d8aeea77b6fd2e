package io.jroce.rnic.core;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ResourceClosedException;

/** A registered memory region over off-heap memory; its address is the memory's real address. */
final class SoftMr implements RegionAccess {
    private final PdOwner pd;
    private final ByteBuffer memory;
    private final UnsafeBuffer view;
    private final long address;
    private final int length;
    private final int access;
    private int key;
    private volatile boolean closed;

    SoftMr(PdOwner pd, ByteBuffer memory, long address, int length, int access) {
        this.pd = pd;
        this.memory = memory;
        this.address = address;
        this.length = length;
        this.access = access;
        this.view = new UnsafeBuffer(address, length);
    }

    void key(int key) {
        this.key = key;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public int lkey() {
        return key;
    }

    @Override
    public int rkey() {
        return key;
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    PdOwner pd() {
        return pd;
    }

    /** The memory, indexed from 0 = {@link #address()}. */
    @Override
    public UnsafeBuffer view() {
        return view;
    }

    @Override
    public ByteBuffer buffer() {
        if (closed) {
            throw new ResourceClosedException("memory region 0x" + Integer.toHexString(key) + " is deregistered");
        }
        return memory.duplicate().clear();
    }

    /**
     * Offset of {@code [va, va+len)} in this region, or -1 when it does not lie wholly inside.
     * Unsigned arithmetic: {@code va} and {@code len} may come from the wire.
     */
    @Override
    public long offsetOf(long va, long len) {
        long off = va - address;
        if (Long.compareUnsigned(off, length) > 0 || Long.compareUnsigned(len, length - off) > 0) {
            return -1;
        }
        return off;
    }

    @Override
    public boolean allows(int flags) {
        return (access & flags) == flags;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** The region's key is released (I/O thread): windows onto it no longer reach it. */
    void markDeregistered() {
        closed = true;
    }

    /** Synchronized: two threads closing at once would both pass the check and both release the PD's use. */
    @Override
    public synchronized void close() {
        if (!closed) {
            pd.deregister(this);
            closed = true;
        }
    }

    @Override
    public String toString() {
        return "mr{key=0x" + Integer.toHexString(key) + ", addr=0x" + Long.toHexString(address) + ", len=" + length
            + ", access=" + AccessFlags.describe(access) + "}";
    }
}
