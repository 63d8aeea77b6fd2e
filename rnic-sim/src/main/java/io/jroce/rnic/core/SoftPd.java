package io.jroce.rnic.core;

import java.nio.ByteBuffer;
import java.util.List;

import org.agrona.BufferUtil;

import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Arguments;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.SharedReceiveQueue;

/** A protection domain: MRs and QPs of one PD may work together, across PDs they may not. */
final class SoftPd implements PdOwner {
    private static final int PAGE = 4096;
    /**
     * The largest {@link #allocateMemory}: a whole number of pages that, with the page of slack
     * an aligned allocation takes, is still an int (Agrona's allocateDirectAligned allocates
     * length + alignment).
     */
    static final int MAX_ALLOCATION = (Integer.MAX_VALUE - PAGE) & -PAGE;
    /** Access that lets the RNIC write the memory (the kernel's ib_access_writable()). */
    private static final int WRITING =
        AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND;

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

    @Override
    public List<Gid> gids() {
        return device.gids();
    }

    SoftDevice softDevice() {
        return device;
    }

    @Override
    public MemoryRegion registerMemory(ByteBuffer buffer, int access) {
        ensureOpen();
        Arguments.notNull(buffer, "buffer");
        if (!buffer.isDirect()) {
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
        long address = BufferUtil.address(slice);
        String problem = ProcessMemoryMap.problem(address, length, (access & WRITING) != 0);
        if (problem != null) {
            throw new InvalidAttributeException("cannot register " + length + " bytes at 0x" + Long.toHexString(address)
                + ": " + problem);
        }
        return register(slice, access);
    }

    /** Registers memory already checked: direct, {@code access} valid, every byte mapped as {@code access} needs. */
    private MemoryRegion register(ByteBuffer slice, int access) {
        users.add(); // first: a PD being deallocated meanwhile refuses the region before it has a key
        SoftMr mr;
        try {
            mr = new SoftMr(this, slice, BufferUtil.address(slice), slice.remaining(), access);
            mr.key(device.keys().allocate(mr));
        } catch (RuntimeException e) {
            users.remove();
            throw e;
        }
        return mr;
    }

    @Override
    public MemoryRegion allocateMemory(int length, int access) {
        ensureOpen();
        checkAccess(access);
        if (length <= 0) {
            throw new InvalidAttributeException("allocation length must be positive, got " + length);
        }
        if (length > MAX_ALLOCATION) {
            throw new ResourceLimitException("allocation of " + length + " bytes exceeds the largest allocateMemory makes, "
                + MAX_ALLOCATION + " bytes (a page-aligned buffer whose size and alignment slack fit a Java int); "
                + "register a buffer of your own for up to max_mr_size " + DeviceLimits.MAX_MR_SIZE);
        }
        ByteBuffer memory;
        try {
            memory = BufferUtil.allocateDirectAligned(align(length), PAGE);
        } catch (OutOfMemoryError e) {
            // Direct memory is capped (-XX:MaxDirectMemorySize); the JVM refuses before touching it.
            throw new ResourceLimitException("cannot allocate " + length + " bytes of direct memory: " + e.getMessage());
        }
        // Fresh anonymous memory, mapped read-write by the JVM: nothing to ask the process's map.
        return register(memory.limit(length).slice(), access);
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
        if (buffer.isReadOnly() && (access & WRITING) != 0) {
            throw new InvalidAttributeException("a read-only buffer cannot be registered with "
                + AccessFlags.describe(access & WRITING) + ": the RNIC would write into it; register it with "
                + "REMOTE_READ only (or none)");
        }
    }

    @Override
    public MemoryWindow allocMemoryWindow(int type) {
        ensureOpen();
        if (type != 1 && type != 2) {
            throw new InvalidAttributeException("memory window type must be 1 or 2, got " + type);
        }
        users.add();
        SoftMw mw;
        try {
            mw = new SoftMw(this, type);
            mw.rkey(device.keys().allocate(mw));
        } catch (RuntimeException e) {
            users.remove();
            throw e;
        }
        return mw;
    }

    @Override
    public void deallocWindow(SoftMw mw) {
        device.io().call(() -> {
            mw.invalidate();
            device.keys().release(mw.rkey());
            return null;
        });
        users.remove();
    }

    @Override
    public void deregister(SoftMr mr) {
        // On the I/O thread: every packet checks the key (and a window its region) again, so none
        // can write the region once this returns.
        device.io().call(() -> {
            device.keys().release(mr.lkey());
            mr.markDeregistered();
            return null;
        });
        users.remove();
    }

    @Override
    public QueuePair createQp(QpInitAttributes init) {
        ensureOpen();
        Arguments.notNull(init, "qp_init_attr");
        users.add();
        SoftQp qp;
        try {
            qp = device.createQp(this, init);
        } catch (RuntimeException e) {
            users.remove();
            throw e;
        }
        return qp;
    }

    void qpDestroyed() {
        users.remove();
    }

    @Override
    public AddressHandle createAddressHandle(AddressVector av) {
        ensureOpen();
        users.add();
        SoftAh ah;
        try {
            ah = new SoftAh(this, av);
        } catch (RuntimeException e) {
            users.remove();
            throw e;
        }
        return ah;
    }

    @Override
    public void ahDestroyed() {
        users.remove();
    }

    @Override
    public SharedReceiveQueue createSrq(int maxWr, int maxSge) {
        ensureOpen();
        users.add();
        SoftSrq srq;
        try {
            srq = new SoftSrq(this, maxWr, maxSge);
        } catch (RuntimeException e) {
            users.remove();
            throw e;
        }
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
