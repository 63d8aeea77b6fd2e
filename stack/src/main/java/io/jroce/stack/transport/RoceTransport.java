package io.jroce.stack.transport;

import org.agrona.DirectBuffer;

/**
 * Moves RoCEv2 packets between the RNIC and the network (the UDP sockets, or the simulated
 * fabric). The transport owns the IP/UDP layer and the ICRC: it appends the ICRC on send, and
 * verifies and strips it on receive, counting and dropping packets that fail.
 */
public interface RoceTransport extends AutoCloseable {
    /**
     * Starts delivering received packets to {@code handler}. Called once.
     *
     * @param handler who takes the packets
     */
    void start(RocePacketHandler handler);

    /**
     * Sends one packet from the local address {@code srcAddress} (which must be one of the
     * transport's own) to {@code dstAddress}:{@code dstPort}. Called only on the I/O thread.
     *
     * @param packet BTH, extension headers, payload and pad, without the ICRC
     * @return false when the packet could not be handed to the network (counted by the transport)
     * @param offset where the BTH starts in {@code packet}
     * @param length the packet's length without the ICRC
     * @param srcAddress a local address, 16 bytes
     * @param dstAddress the peer's address, 16 bytes
     * @param dstPort the peer's UDP port
     */
    boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort);

    /**
     * {@link #send(DirectBuffer, int, int, byte[], byte[], int)} of a packet its sender numbered
     * {@code frame} (its event log's frame number). A network that carries the number hands it to
     * the receiver's {@link RocePacketHandler#onPacket(DirectBuffer, int, int, byte[], int, byte[], long)}
     * (the simulated fabric does; UDP has nowhere to put it), and a fault injector names it to its
     * {@link io.jroce.stack.fault.FaultListener}. By default the number is ignored.
     *
     * @param packet BTH, extension headers, payload and pad, without the ICRC
     * @param offset where the BTH starts in {@code packet}
     * @param length the packet's length without the ICRC
     * @param srcAddress a local address, 16 bytes
     * @param dstAddress the peer's address, 16 bytes
     * @param dstPort the peer's UDP port
     * @param frame the sender's number for the packet, 0 for none
     * @return false when the packet could not be handed to the network (counted by the transport)
     */
    default boolean send(DirectBuffer packet, int offset, int length, byte[] srcAddress, byte[] dstAddress, int dstPort,
                         long frame) {
        return send(packet, offset, length, srcAddress, dstAddress, dstPort);
    }

    /**
     * Flushes packets {@link #send} queued; the RNIC calls it once per batch of work it started
     * itself (posts, timers). Packets sent from inside the {@link RocePacketHandler} are flushed by
     * the transport when its receive batch ends.
     */
    void flush();

    /**
     * Starts receiving datagrams sent to the multicast group {@code group} (16 bytes, IPv4-mapped
     * for an IPv4 group) on every local address of its family, as the device's sockets join the
     * group (IGMP/MLD). The device calls it when the first QP attaches to the group, on an
     * application thread, never on the I/O thread.
     *
     * @throws UnsupportedOperationException the transport cannot receive multicast
     * @param group the group's address, 16 bytes
     */
    default void joinGroup(byte[] group) {
        throw new UnsupportedOperationException("this transport does not receive multicast");
    }

    /**
     * Stops receiving {@code group} (its last QP detached); a group not joined is ignored.
     *
     * @param group the group's address, 16 bytes
     */
    default void leaveGroup(byte[] group) {
    }

    @Override
    void close();
}
