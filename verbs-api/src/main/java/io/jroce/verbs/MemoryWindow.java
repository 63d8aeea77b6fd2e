package io.jroce.verbs;

/**
 * A memory window (ibv_mw, IBTA 10.6.7): an rkey for part of a memory region, bound and
 * invalidated separately from the region. Type 1 windows are bound with
 * {@link QueuePair#bindMemoryWindow}; type 2 windows with a {@link WrOpcode#BIND_MW} work request,
 * are tied to the QP that bound them, and are invalidated by {@link WrOpcode#LOCAL_INV} or a peer's
 * {@link WrOpcode#SEND_WITH_INV}.
 */
public interface MemoryWindow extends AutoCloseable {
    /**
     * The current rkey (it grants no access until the window is bound).
     *
     * @return the rkey
     */
    int rkey();

    /**
     * The rkey a type 2 bind should use next (ibv_inc_rkey).
     *
     * @return the current rkey with its low 8 bits (the key) incremented, wrapping within them
     */
    default int nextRkey() {
        int k = rkey();
        return (k & ~0xFF) | ((k + 1) & 0xFF);
    }

    /**
     * The window's type (IBV_MW_TYPE_1 or IBV_MW_TYPE_2).
     *
     * @return 1 or 2
     */
    int type();

    /**
     * The protection domain the window was allocated in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /** Deallocates the window (ibv_dealloc_mw); its rkey stops working at once. */
    @Override
    void close();
}
