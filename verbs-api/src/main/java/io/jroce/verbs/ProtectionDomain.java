package io.jroce.verbs;

import java.nio.ByteBuffer;

/** A protection domain (ibv_pd): the MRs and QPs that may work together. */
public interface ProtectionDomain extends AutoCloseable {
    /**
     * The device the PD was allocated on.
     *
     * @return the device
     */
    RdmaDevice device();

    /**
     * Registers a direct buffer's memory from its position to its limit (ibv_reg_mr).
     *
     * @param directBuffer a direct (off-heap) buffer; heap buffers are refused
     * @param access {@link AccessFlags}; REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE, as in verbs
     * @return the region, whose keys work until it is closed
     * @throws InvalidAttributeException the buffer is not direct, or the flags are not allowed together
     */
    MemoryRegion registerMemory(ByteBuffer directBuffer, int access);

    /**
     * Allocates zeroed, page-aligned off-heap memory and registers it.
     *
     * @param length how many bytes, positive
     * @param access {@link AccessFlags}, as for {@link #registerMemory}
     * @return the region; its {@link MemoryRegion#buffer()} is the memory
     * @throws InvalidAttributeException {@code length} is not positive
     * @throws ResourceLimitException    {@code length} exceeds what the device allocates at once
     */
    MemoryRegion allocateMemory(int length, int access);

    /**
     * Creates a queue pair in the RESET state (ibv_create_qp).
     *
     * @param init its type, CQs, SRQ and queue sizes
     * @return the QP, with its QP number assigned
     * @throws InvalidAttributeException an attribute is missing or out of range
     * @throws ResourceLimitException    the device has no room for another QP of that size
     */
    QueuePair createQp(QpInitAttributes init);

    /**
     * Allocates a memory window (ibv_alloc_mw).
     *
     * @param type 1 or 2
     * @return the window, not yet bound
     * @throws InvalidAttributeException the type is neither 1 nor 2
     */
    MemoryWindow allocMemoryWindow(int type);

    /**
     * Creates an address handle for UD sends (ibv_create_ah); the source GID index must exist.
     *
     * @param av where the sends go (copied)
     * @return the handle
     * @throws InvalidAttributeException the address vector is invalid, e.g. names no existing GID index
     */
    AddressHandle createAddressHandle(AddressVector av);

    /**
     * Creates a shared receive queue (ibv_create_srq).
     *
     * @param maxWr  how many WQEs it holds
     * @param maxSge how many scatter/gather entries each WQE may have
     * @return the SRQ, empty
     * @throws InvalidAttributeException a size is out of the device's range
     */
    SharedReceiveQueue createSrq(int maxWr, int maxSge);

    /** Deallocates the PD; refused with {@link ResourceBusyException} while MRs or QPs remain. */
    @Override
    void close();
}
