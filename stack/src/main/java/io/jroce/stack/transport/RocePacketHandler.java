package io.jroce.stack.transport;

import org.agrona.DirectBuffer;

/**
 * Receives the packets a {@link RoceTransport} accepted. Called on the transport's I/O thread; the
 * buffer and the address arrays are valid only during the call.
 */
@FunctionalInterface
public interface RocePacketHandler {
    /**
     * @param packet     BTH, extension headers, payload and pad; the ICRC already verified and removed
     * @param srcAddress sender IP address, 16 bytes (IPv4-mapped for IPv4)
     * @param srcPort    sender UDP port
     * @param dstAddress the local IP address it arrived on, 16 bytes (IPv4-mapped for IPv4)
     * @param offset where the BTH starts in {@code packet}
     * @param length the packet's length without the ICRC
     */
    void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort, byte[] dstAddress);

    /**
     * A packet with the number its sender gave it ({@link RoceTransport#send(DirectBuffer, int, int,
     * byte[], byte[], int, long)}), from a network that carries it: the simulated fabric. By default
     * the number is ignored.
     *
     * @param packet     BTH, extension headers, payload and pad; the ICRC already verified and removed
     * @param offset     where the BTH starts in {@code packet}
     * @param length     the packet's length without the ICRC
     * @param srcAddress sender IP address, 16 bytes (IPv4-mapped for IPv4)
     * @param srcPort    sender UDP port
     * @param dstAddress the local IP address it arrived on, 16 bytes (IPv4-mapped for IPv4)
     * @param frame      the sender's number for the packet, 0 when it gave none
     */
    default void onPacket(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort,
                          byte[] dstAddress, long frame) {
        onPacket(packet, offset, length, srcAddress, srcPort, dstAddress);
    }

    /**
     * A packet whose ICRC did not verify, just before the transport drops and counts it
     * ({@code drop_bad_icrc}): for a listener that records what arrived (the event log), never for
     * the RNIC, which must not act on it. By default nothing happens.
     *
     * @param packet     BTH, extension headers, payload and pad as they arrived, without the ICRC
     * @param offset     where the BTH starts in {@code packet}
     * @param length     the packet's length without the ICRC
     * @param srcAddress sender IP address, 16 bytes (IPv4-mapped for IPv4)
     * @param srcPort    sender UDP port
     * @param dstAddress the local IP address it arrived on, 16 bytes (IPv4-mapped for IPv4)
     * @param frame      the sender's number for the packet, 0 when the network carried none
     */
    default void onBadIcrc(DirectBuffer packet, int offset, int length, byte[] srcAddress, int srcPort,
                           byte[] dstAddress, long frame) {
    }
}
