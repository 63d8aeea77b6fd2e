package io.jroce.verbs;

import java.nio.ByteBuffer;

/**
 * Registered memory (ibv_mr). Its {@link #address()} is the memory's real virtual address, as in
 * real verbs: that is what a peer puts in a RETH. Deregister with {@link #close()}.
 */
public interface MemoryRegion extends AutoCloseable {
    /**
     * The virtual address of the region's first byte.
     *
     * @return the address
     */
    long address();

    /**
     * The region's length.
     *
     * @return the length in bytes
     */
    long length();

    /**
     * The key that local work requests' scatter/gather entries name the region by.
     *
     * @return the lkey
     */
    int lkey();

    /**
     * The key a peer names the region by in RDMA and atomic requests.
     *
     * @return the rkey
     */
    int rkey();

    /**
     * The access granted at registration.
     *
     * @return a mask of {@link AccessFlags}
     */
    int access();

    /**
     * The protection domain the region was registered in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /**
     * The registered memory as a buffer.
     *
     * @return a view (position 0, limit length) that shares the region's contents
     */
    ByteBuffer buffer();

    /** Deregisters the region (ibv_dereg_mr); keys stop working at once. */
    @Override
    void close();
}
