package io.jroce.stack.udp;

import io.netty.channel.epoll.LinuxSocket;
import java.io.IOException;

/**
 * One socket of a {@link DirectUdpTransport}: its local address, its reads, and (unicast sockets
 * only) its send queue. Used by one thread at a time.
 */
final class DirectSocket {
    final LocalEndpoint local;
    final LinuxSocket socket;
    final DatagramReader reader;
    /** Null for a multicast group's socket: sends to a group leave from the unicast sockets. */
    final DatagramSendQueue sendQueue;
    /** The IPv6 scope of the local address (link-local destinations take it), else 0. */
    final int scopeId;

    DirectSocket(LocalEndpoint local, LinuxSocket socket, DatagramReader reader, DatagramSendQueue sendQueue,
                 int scopeId) {
        this.local = local;
        this.socket = socket;
        this.reader = reader;
        this.sendQueue = sendQueue;
        this.scopeId = scopeId;
    }

    int fd() {
        return socket.intValue();
    }

    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // the descriptor is released whatever close(2) reports
        }
    }

    @Override
    public String toString() {
        return local.toString();
    }
}
