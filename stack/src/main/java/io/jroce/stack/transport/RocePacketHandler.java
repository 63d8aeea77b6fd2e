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
}
