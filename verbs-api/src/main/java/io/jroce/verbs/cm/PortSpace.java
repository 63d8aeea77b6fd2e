package io.jroce.verbs.cm;

/**
 * RDMA CM port spaces ({@code enum rdma_port_space}, rdma_cma.h): the high bits of the service ID a
 * REQ asks for, service ID = port space &lt;&lt; 16 | port ({@code cma.c cma_get_service_id}).
 */
public enum PortSpace {
    /** Reliable connections (RC QPs), like TCP. */
    TCP(0x0106),
    /** Unreliable datagrams: UD QPs, whose connect resolves the peer's QP and Q_Key with SIDR (IBTA 12.11). */
    UDP(0x0111),
    /** Any QP type, the IB port space. */
    IB(0x013F);

    private final int value;

    PortSpace(int value) {
        this.value = value;
    }

    /**
     * The port space's value in {@code rdma_cma.h}.
     *
     * @return the value
     */
    public int value() {
        return value;
    }

    /**
     * The service ID of a port in this port space.
     *
     * @param port the port, 0..65535 (higher bits are ignored)
     * @return {@code value() << 16 | port}
     */
    public long serviceId(int port) {
        return ((long) value << 16) | (port & 0xFFFF);
    }
}
