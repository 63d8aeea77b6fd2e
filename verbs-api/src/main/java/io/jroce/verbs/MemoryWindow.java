package io.jroce.verbs;

/**
 * A memory window (ibv_mw, IBTA 10.6.7): an rkey for part of a memory region, bound and
 * invalidated separately from the region. Type 1 windows are bound with
 * {@link QueuePair#bindMemoryWindow}; type 2 windows with a {@link WrOpcode#BIND_MW} work request,
 * are tied to the QP that bound them, and are invalidated by {@link WrOpcode#LOCAL_INV} or a peer's
 * {@link WrOpcode#SEND_WITH_INV}.
 */
public interface MemoryWindow extends AutoCloseable {
    /** The current rkey (0 bits of access until bound). */
    int rkey();

    /** The rkey a type 2 bind should use next: the current one with its low 8 bits incremented (ibv_inc_rkey). */
    default int nextRkey() {
        int k = rkey();
        return (k & ~0xFF) | ((k + 1) & 0xFF);
    }

    /** 1 or 2. */
    int type();

    ProtectionDomain protectionDomain();

    /** Deallocates the window (ibv_dealloc_mw); its rkey stops working at once. */
    @Override
    void close();
}
