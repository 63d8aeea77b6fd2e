package io.jroce.benchmarks.harness;

import io.jroce.stack.wire.RoceV2;

/**
 * A datagram of the C floor's runs, sized as the RoCE packet it stands for: {@code udpPayload} is
 * what udp-floor sends (the RoCE packet from BTH to ICRC, all that a RoCEv2 packet puts in its
 * UDP payload), {@code roceOverhead} the bytes of it that are RoCE headers, pad and ICRC rather
 * than message payload. The floor's goodput counts only the rest, as jroce's reports count only
 * message payload. Sizes come from {@link WireLayout}, that is from the opcode table the RNIC
 * builds its packets with.
 */
record FloorDatagram(int udpPayload, int roceOverhead) {
    /** Far above any size used here: one packet per message. */
    private static final int ONE_PACKET = 1 << 20;

    /** An RC RDMA WRITE ONLY of {@code size} bytes: 64 B is 12 + 16 + 64 + 4 = 96. */
    static FloorDatagram writeOnly(int size) {
        return of(WireLayout.packetLength(WireLayout.Operation.RDMA_WRITE, size, ONE_PACKET, 0), size);
    }

    /** A full RDMA WRITE MIDDLE packet at path MTU {@code mtu}: 4096 is 12 + 4096 + 4 = 4112. */
    static FloorDatagram writeMiddle(int mtu) {
        return of(WireLayout.packetLength(WireLayout.Operation.RDMA_WRITE, 3L * mtu, mtu, 1), mtu);
    }

    /** Message payload bytes per datagram. */
    int goodput() {
        return udpPayload - roceOverhead;
    }

    /** The floor's payload goodput, from its received UDP payload bit rate. */
    double goodputGbps(double udpPayloadGbps) {
        return udpPayloadGbps * goodput() / udpPayload;
    }

    /** The ping-pong datagram of send_lat: an RC SEND ONLY of {@code size} bytes (64 B: 12 + 64 + 4 = 80). */
    static int sendLatency(int size) {
        return WireLayout.packetLength(WireLayout.Operation.SEND, size, ONE_PACKET, 0) + RoceV2.ICRC_LENGTH;
    }

    /** The ping-pong datagram of write_lat: each side WRITEs into the other, 96 bytes for 64 B. */
    static int writeLatency(int size) {
        return writeOnly(size).udpPayload();
    }

    /**
     * read_lat's round trip is a READ request (12 + 16 + 4 = 32) one way and a READ RESPONSE ONLY
     * (12 + 4 + 64 + 4 = 84 for 64 B) the other; udp-floor sends one size both ways, so it sends
     * their mean (58), moving the same bytes per round trip.
     */
    static int readLatency(int size) {
        return mean(WireLayout.READ_REQUEST_LENGTH + RoceV2.ICRC_LENGTH,
            WireLayout.packetLength(WireLayout.Operation.RDMA_READ_RESPONSE, size, ONE_PACKET, 0) + RoceV2.ICRC_LENGTH);
    }

    /** atomic_lat's round trip: an atomic request (12 + 28 + 4 = 44) and its ATOMIC ACKNOWLEDGE (12 + 4 + 8 + 4 = 28): 36. */
    static int atomicLatency() {
        return mean(WireLayout.ATOMIC_REQUEST_LENGTH + RoceV2.ICRC_LENGTH, WireLayout.ATOMIC_ACK_LENGTH + RoceV2.ICRC_LENGTH);
    }

    private static FloorDatagram of(int packetLength, int payload) {
        int udp = packetLength + RoceV2.ICRC_LENGTH;
        return new FloorDatagram(udp, udp - payload);
    }

    private static int mean(int a, int b) {
        return (a + b + 1) / 2;
    }
}
