package io.jroce.rnic.core;

import org.agrona.DirectBuffer;

/**
 * What takes the MADs the device's GSI (QP1) receives: the seam the connection manager implements.
 * Called on the I/O thread, once per valid MAD, with nothing allocated: every argument is a view
 * or a buffer that is reused for the next packet, valid only during the call (copy what must outlive it).
 * It may answer at once with {@link Gsi#send}. Whatever it throws is counted as
 * {@code drop_internal_error} and logged, never raised on the I/O thread's caller.
 */
@FunctionalInterface
public interface MadHandler {
    /**
     * @param mad       exactly {@link Gsi#MAD_LENGTH} bytes, index 0 to 255: the MAD as received
     * @param peerGid   the sender's GID (its IP address, IPv4-mapped for IPv4), 16 bytes
     * @param peerPort  the sender's UDP source port: an address to answer, never a filter (rxe sends
     *                  from 0xC000 plus a hash, the kernel answers to where the MAD came from)
     * @param sourceQp  the DETH source QP (1 for another GSI)
     * @param pkeyIndex the index in the P_Key table of the packet's P_Key (0: the table holds only 0xFFFF)
     * @param localGid  the device's GID the MAD arrived on, 16 bytes: the source of an answer
     * @param nowNs     the I/O thread's clock
     */
    void onMad(DirectBuffer mad, byte[] peerGid, int peerPort, int sourceQp, int pkeyIndex, byte[] localGid, long nowNs);

    /**
     * The device's periodic timer tick (the same that expires the transport's retransmission
     * timers), on the I/O thread: where the handler's own timers expire. It may send with {@link Gsi#send}.
     *
     * @param nowNs the I/O thread's clock
     */
    default void onTimer(long nowNs) {
    }
}
