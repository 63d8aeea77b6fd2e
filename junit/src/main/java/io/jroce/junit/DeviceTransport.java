package io.jroce.junit;

/** Where a {@link DevicePair}'s devices exchange their packets. */
public enum DeviceTransport {
    /**
     * The deterministic simulated fabric: virtual time, seeded faults, a packet trace; the test's
     * thread drives it (a blocking poll runs its clock).
     */
    FABRIC,
    /** Real UDP sockets on loopback: 127.0.0.1 and 127.0.0.2, on a free port; the devices' own threads. */
    UDP
}
