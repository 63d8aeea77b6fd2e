package io.jroce.verbs;

import java.nio.ByteBuffer;

/**
 * Registered memory (ibv_mr). Its {@link #address()} is the memory's real virtual address, as in
 * real verbs: that is what a peer puts in a RETH. Deregister with {@link #close()}.
 */
public interface MemoryRegion extends AutoCloseable {
    long address();

    long length();

    int lkey();

    int rkey();

    /** {@link AccessFlags} granted at registration. */
    int access();

    ProtectionDomain protectionDomain();

    /** A view of the registered memory (position 0, limit length), sharing its contents. */
    ByteBuffer buffer();

    /** Deregisters the region (ibv_dereg_mr); keys stop working at once. */
    @Override
    void close();
}
