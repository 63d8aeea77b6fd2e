package io.jroce.stack.udp;

/** Which Netty transport carries the UDP sockets. */
public enum IoMode {
    /** Native epoll when {@code Epoll.isAvailable()}, else NIO (logged as a warning). */
    AUTO,
    /**
     * Linux native epoll: the only mode that can set IP_MTU_DISCOVER (IPv4 ID 0, so rxe accepts our
     * ICRC) and UDP_NO_CHECK6_RX (so the kernel delivers rxe's zero-checksum IPv6 packets).
     */
    EPOLL,
    /**
     * Java NIO, the fallback. It can set neither socket option, so towards a Linux rxe peer:
     * IPv4 packets we send leave with a kernel-chosen IP ID while their ICRC was computed for ID 0,
     * and rxe drops them; IPv4 packets rxe sends are still verified (through ID recovery); the
     * kernel drops rxe's zero-checksum IPv6 packets before they reach the socket; IPv6 packets we
     * send are fine. Between jroce transports everything works, since neither end sees the ID.
     */
    NIO
}
