package io.jroce.rnic.core;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

import org.agrona.BufferUtil;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.SharedReceiveQueue;

/** A protection domain: MRs and QPs of one PD may work together, across PDs they may not. */
final class SoftPd implements ProtectionDomain {
    private static final int PAGE = 4096;

    private final SoftDevice device;
    private final int handle;
    /** Its MRs, MWs, QPs, AHs and SRQs. */
    private final ResourceUsers users;

    SoftPd(SoftDevice device, int handle) {
        this.device = device;
        this.handle = handle;
        this.users = new ResourceUsers("protection domain " + handle + " is deallocated");
    }

    int handle() {
        return handle;
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    SoftDevice softDevice() {
        return device;
    }

    @Override
    public MemoryRegion registerMemory(ByteBuffer buffer, int access) {
        ensureOpen();
        if (buffer == null || !buffer.isDirect()) {
            throw new InvalidAttributeException("only direct (off-heap) ByteBuffers can be registered: the RNIC "
                + "addresses memory by its real address, and a heap buffer can move");
        }
        checkAccess(access);
        int length = buffer.remaining();
        if (length == 0) {
            throw new InvalidAttributeException("cannot register 0 bytes");
        }
        checkWritable(buffer, access);
        ByteBuffer slice = buffer.slice();
        if (slice instanceof MappedByteBuffer) {
            checkMapped((MappedByteBuffer) slice);
        }
        long address = BufferUtil.address(slice);
        SoftMr mr = new SoftMr(this, slice, address, length, access);
        mr.key(device.keys().allocate(mr));
        users.add();
        return mr;
    }

    @Override
    public MemoryRegion allocateMemory(int length, int access) {
        if (length <= 0) {
            throw new InvalidAttributeException("allocation length must be positive, got " + length);
        }
        if (length > DeviceLimits.MAX_MR_SIZE - PAGE) {
            throw new ResourceLimitException("allocation of " + length + " bytes exceeds max_mr_size");
        }
        return registerMemory(BufferUtil.allocateDirectAligned(align(length), PAGE).limit(length), access);
    }

    private static int align(int length) {
        return (length + PAGE - 1) & -PAGE;
    }

    static void checkAccess(int access) {
        if ((access & ~AccessFlags.ALL) != 0) {
            throw new InvalidAttributeException("unknown access flag bits 0x" + Integer.toHexString(access & ~AccessFlags.ALL));
        }
        if ((access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 && (access & AccessFlags.LOCAL_WRITE) == 0) {
            // IBTA 10.6.3.1: remote write or atomic access requires local write access.
            throw new InvalidAttributeException("REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE, got "
                + AccessFlags.describe(access));
        }
    }

    /**
     * Memory that the RNIC may write must be writable: the responder copies into it through its
     * address, below Java's read-only checks, and a read-only mapping would then fault and take
     * the JVM down. The kernel refuses the same registration (ib_umem_get pins the pages for
     * writing when ib_access_writable(): LOCAL_WRITE, REMOTE_WRITE, REMOTE_ATOMIC or MW_BIND).
     */
    private static void checkWritable(ByteBuffer buffer, int access) {
        int writing = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND;
        if (buffer.isReadOnly() && (access & writing) != 0) {
            throw new InvalidAttributeException("a read-only buffer cannot be registered with "
                + AccessFlags.describe(access & writing) + ": the RNIC would write into it; register it with "
                + "REMOTE_READ only (or none)");
        }
    }

    /**
     * A mapping of a file shorter than the mapping has no pages past the file's end: touching them
     * faults. The kernel pins every page at registration and fails there; this touches one byte of
     * every page for the same effect (a truncation after registration is the owner's to avoid, as
     * with any mapped file in Java).
     */
    private static void checkMapped(MappedByteBuffer mapped) {
        try {
            for (int i = 0; i < mapped.limit(); i += PAGE) {
                mapped.get(i);
            }
            mapped.get(mapped.limit() - 1);
            // The JVM reports the fault asynchronously ("a fault occurred in a recent unsafe memory
            // access"), at the next transition from native code at the latest: make one here.
            Thread.yield();
        } catch (InternalError e) {
            throw new InvalidAttributeException("the mapped buffer is not backed by its file over its whole length "
                + "(the file is shorter than the mapping): " + e.getMessage());
        }
    }

    @Override
    public MemoryWindow allocMemoryWindow(int type) {
        ensureOpen();
        if (type != 1 && type != 2) {
            throw new InvalidAttributeException("memory window type must be 1 or 2, got " + type);
        }
        SoftMw mw = new SoftMw(this, type);
        mw.rkey(device.keys().allocate(mw));
        users.add();
        return mw;
    }

    void deallocWindow(SoftMw mw) {
        device.io().call(() -> {
            mw.invalidate();
            device.keys().release(mw.rkey());
            return null;
        });
        users.remove();
    }

    void deregister(SoftMr mr) {
        // On the I/O thread: no packet can be using the region while its key disappears.
        device.io().call(() -> {
            device.keys().release(mr.lkey());
            return null;
        });
        users.remove();
    }

    @Override
    public QueuePair createQp(QpInitAttributes init) {
        ensureOpen();
        SoftQp qp = device.createQp(this, init);
        users.add();
        return qp;
    }

    void qpDestroyed() {
        users.remove();
    }

    @Override
    public AddressHandle createAddressHandle(AddressVector av) {
        ensureOpen();
        SoftAh ah = new SoftAh(this, av);
        users.add();
        return ah;
    }

    void ahDestroyed() {
        users.remove();
    }

    @Override
    public SharedReceiveQueue createSrq(int maxWr, int maxSge) {
        ensureOpen();
        SoftSrq srq = new SoftSrq(this, maxWr, maxSge);
        users.add();
        return srq;
    }

    void srqDestroyed() {
        users.remove();
    }

    void ensureOpen() {
        users.ensureOpen();
        device.ensureOpen();
    }

    @Override
    public synchronized void close() {
        if (!users.mayClose(n -> "protection domain " + handle + " still has " + n
                + " memory region(s), queue pair(s), address handle(s) or SRQ(s); close them first")) {
            return;
        }
        users.markClosed();
        device.pdClosed(this);
    }
}
