package io.jroce.stack.fault;

/**
 * Hears each fault the network injects into a packet of one sender: the simulated fabric for the
 * endpoint it was attached with, or a {@link FaultInjectingTransport}. The sending device's event log
 * is one, so that its log marks what the network did to its packets; stack knows nothing of logs.
 * Called on the sender's thread, during the send, before the packet goes on: {@code packet} is valid
 * only during the call. A listener allocates nothing; {@link #NONE} costs a call per fault.
 */
@FunctionalInterface
public interface FaultListener {
    /** Hears nothing. */
    FaultListener NONE = (action, cause, packet, frame) -> {
    };

    /**
     * The network did {@code action} to {@code packet}.
     *
     * @param action what it did
     * @param cause  why, as the {@link PacketTrace} words it: the rule, or the random link condition
     * @param packet the packet as it was sent, before any corruption
     * @param frame  the sender's number for the packet (its event log's frame), 0 when it has none
     */
    void faultInjected(FaultAction action, String cause, OutgoingPacket packet, long frame);
}
