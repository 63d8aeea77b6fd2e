package io.jroce.rnic.cm.api;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Optional;

/**
 * The host's routing decision, as {@code rdma_resolve_addr} asks the kernel for it
 * ({@code cma_resolve_addr} → {@code rdma_resolve_ip} → a route lookup): the source address the
 * host uses to reach a destination. Java has no routing-table API; a UDP socket connected to the
 * destination is bound to exactly that address (connect on a datagram socket sends nothing).
 */
public final class HostRoute {
    /** Any port: connect only looks up the route. RoCEv2's, for readability in traces. */
    private static final int PORT = 4791;

    private HostRoute() {
    }

    /**
     * The source address of the host's route to {@code destination}, or empty when it has none.
     *
     * @param destination the address to reach
     * @return the source address the host would use, or empty
     */
    public static Optional<InetAddress> sourceFor(InetAddress destination) {
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(new InetSocketAddress(destination, PORT));
            InetAddress source = s.getLocalAddress();
            return source == null || source.isAnyLocalAddress() ? Optional.empty() : Optional.of(source);
        } catch (SocketException noRoute) {
            return Optional.empty();
        }
    }
}
