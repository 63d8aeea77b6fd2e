package io.jroce.rnic.core;

/**
 * Told when a connected QP receives its first packet after it reached RTR: the Communication
 * Established event of IBTA Vol. 1 11.6.3.1 (the kernel's {@code IB_EVENT_COMM_EST}). The connection
 * manager registers one with {@link Gsi#commEstablishedListener}, so that a passive side whose RTU was
 * lost is established by the peer's first packet (IBTA 12.6.9; the kernel's {@code ib_cm_notify}).
 * The core knows no CM: this interface is the whole seam.
 */
@FunctionalInterface
public interface CommEstablishedListener {
    /**
     * Called on the I/O thread, once per QP and RTR transition, before the packet is processed.
     * Whatever it throws is caught by the engine (the packet is counted as an internal error).
     *
     * @param qpn   the QP that received the packet
     * @param nowNs the I/O thread's clock
     */
    void onCommEstablished(int qpn, long nowNs);
}
