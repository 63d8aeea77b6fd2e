package io.jroce.tools;

import java.util.List;

/**
 * One jroce device as the device file defines it (docs/configuration.md): what a kernel RDMA
 * device knows by itself and a jroce device must be told.
 *
 * @param name      the name {@code -d} takes, e.g. {@code jroce0}
 * @param addresses its IP address literals, one GID each, in GID index order
 * @param udpPort   the RoCE UDP port it binds
 */
public record DeviceDefinition(String name, List<String> addresses, int udpPort) {
    /**
     * Copies the addresses.
     *
     * @param name      the name
     * @param addresses the IP address literals
     * @param udpPort   the UDP port
     */
    public DeviceDefinition {
        addresses = List.copyOf(addresses);
    }
}
