package io.jroce.verbs;

import java.nio.ByteBuffer;

/** A protection domain (ibv_pd): the MRs and QPs that may work together. */
public interface ProtectionDomain extends AutoCloseable {
    RdmaDevice device();

    /**
     * Registers a direct buffer's memory from its position to its limit (ibv_reg_mr).
     *
     * @param access {@link AccessFlags}; REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE, as in verbs
     */
    MemoryRegion registerMemory(ByteBuffer directBuffer, int access);

    /** Allocates {@code length} bytes of zeroed, page-aligned off-heap memory and registers it. */
    MemoryRegion allocateMemory(int length, int access);

    QueuePair createQp(QpInitAttributes init);

    /** Allocates a memory window of type 1 or 2 (ibv_alloc_mw). */
    MemoryWindow allocMemoryWindow(int type);

    /** Creates an address handle for UD sends (ibv_create_ah); the source GID index must exist. */
    AddressHandle createAddressHandle(AddressVector av);

    /** Creates a shared receive queue of {@code maxWr} WQEs with up to {@code maxSge} entries each (ibv_create_srq). */
    SharedReceiveQueue createSrq(int maxWr, int maxSge);

    /** Deallocates the PD; refused with {@link ResourceBusyException} while MRs or QPs remain. */
    @Override
    void close();
}
