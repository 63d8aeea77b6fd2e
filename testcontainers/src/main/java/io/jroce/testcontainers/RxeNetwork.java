package io.jroce.testcontainers;

import com.github.dockerjava.api.model.Network.Ipam;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Docker network that rxe peers (and this host, on the network's bridge) share. Either Docker's
 * default bridge ({@link #dockerDefault()}: IPv4 and IPv6 link-local, MTU 1500, rxe's active MTU
 * 1024) or a network of the test's own ({@link #builder()}: optionally a global IPv6 subnet and a
 * 9000-byte MTU, which lets rxe use path MTU 4096), removed again by {@link #close()}.
 *
 * <p>The host is a member of every such network: its address on the bridge
 * ({@link #hostIpv4()}, {@link #hostIpv6()}) is the gateway the peers have, so a jroce device bound
 * to it talks to a guest directly.
 */
public final class RxeNetwork implements AutoCloseable {
    private static final String DEFAULT_BRIDGE = "bridge";

    private final Network network; // null for Docker's default bridge
    private final String id;
    private final int mtu;
    private final String hostIpv4;
    private final String hostIpv6;
    private final String hostInterface;

    private RxeNetwork(Network network, String id, int mtu, String hostIpv4, String hostIpv6, String hostInterface) {
        this.network = network;
        this.id = id;
        this.mtu = mtu;
        this.hostIpv4 = hostIpv4;
        this.hostIpv6 = hostIpv6;
        this.hostInterface = hostInterface;
    }

    /** {@return Docker's default bridge ({@code docker0}); closing it does nothing} */
    public static RxeNetwork dockerDefault() {
        com.github.dockerjava.api.model.Network info = inspect(DEFAULT_BRIDGE);
        String iface = info.getOptions().getOrDefault("com.docker.network.bridge.name", "docker0");
        int mtu = Integer.parseInt(info.getOptions().getOrDefault("com.docker.network.driver.mtu", "1500"));
        return new RxeNetwork(null, info.getId(), mtu, hostAddress(iface, info, false), hostAddress(iface, info, true), iface);
    }

    /** {@return a builder of a network of the test's own} */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a network of the test's own. */
    public static final class Builder {
        private boolean ipv6;
        private int mtu = 1500;

        private Builder() {
        }

        /**
         * Adds a random unique-local IPv6 /64: peers and host then also get global IPv6 addresses (rxe GID index 2).
         *
         * @return this builder
         */
        public Builder ipv6() {
            this.ipv6 = true;
            return this;
        }

        /**
         * The MTU of the peers' interfaces; 9000 allows rxe path MTU 4096 (the host bridge is raised too).
         *
         * @param mtu the MTU, 1280 to 9000
         * @return this builder
         */
        public Builder mtu(int mtu) {
            if (mtu < 1280 || mtu > 9000) {
                throw new IllegalArgumentException("MTU " + mtu + " outside 1280..9000");
            }
            this.mtu = mtu;
            return this;
        }

        /**
         * Creates the network now.
         *
         * @return the network, the caller's to close
         */
        public RxeNetwork create() {
            Map<String, String> options = new HashMap<>();
            options.put("com.docker.network.driver.mtu", Integer.toString(mtu));
            String subnet6 = ipv6 ? randomUlaSubnet() : null;
            Network network = Network.builder()
                .driver("bridge")
                .enableIpv6(ipv6)
                .createNetworkCmdModifier(cmd -> {
                    cmd.withOptions(options);
                    if (subnet6 != null) {
                        String gateway6 = subnet6.substring(0, subnet6.indexOf('/')) + "1";
                        cmd.withIpam(new Ipam().withConfig(new Ipam.Config().withSubnet(subnet6).withGateway(gateway6)));
                    }
                })
                .build();
            String id = network.getId(); // creates it
            try {
                com.github.dockerjava.api.model.Network info = inspect(id);
                String iface = info.getOptions().getOrDefault("com.docker.network.bridge.name",
                    "br-" + id.substring(0, 12));
                RxeNetwork created = new RxeNetwork(network, id, mtu, hostAddress(iface, info, false),
                    hostAddress(iface, info, true), iface);
                created.raiseHostMtu();
                return created;
            } catch (RuntimeException e) {
                network.close();
                throw e;
            }
        }
    }

    /** {@return the host's IPv4 address on this network's bridge (the peers' gateway)} */
    public String hostIpv4() {
        return hostIpv4;
    }

    /** {@return the host's global IPv6 address on the bridge, when the network has an IPv6 subnet} */
    public Optional<String> hostIpv6() {
        return Optional.ofNullable(hostIpv6);
    }

    /** {@return the host's bridge interface ({@code docker0}, {@code br-<id>}): the scope of link-local addresses} */
    public String hostInterface() {
        return hostInterface;
    }

    /** {@return the MTU the peers' interfaces get} */
    public int mtu() {
        return mtu;
    }

    /** {@return Docker's network ID} */
    public String id() {
        return id;
    }

    /** For {@link RxeContainer}: the Testcontainers network to join, or null for the default bridge. */
    Network testcontainersNetwork() {
        return network;
    }

    @Override
    public void close() {
        if (network != null) {
            network.close();
        }
    }

    /**
     * Docker applies a network's MTU to the containers' interfaces but leaves its host bridge at
     * 1500, which caps what the host itself (a jroce device bound to {@link #hostIpv4()}) can
     * exchange with the peers. Raise it, as root; peers among themselves do not need this.
     */
    private void raiseHostMtu() {
        Path sysMtu = Path.of("/sys/class/net", hostInterface, "mtu");
        try {
            if (mtu <= 1500 || !Files.exists(sysMtu) || Integer.parseInt(Files.readString(sysMtu).trim()) >= mtu) {
                return;
            }
            Process ip = new ProcessBuilder(List.of("ip", "link", "set", "dev", hostInterface, "mtu", Integer.toString(mtu)))
                .redirectErrorStream(true).start();
            String out = new String(ip.getInputStream().readAllBytes()).trim();
            if (ip.waitFor() != 0) {
                System.err.println("RxeNetwork: could not raise the MTU of " + hostInterface + " to " + mtu
                    + " (" + out + "): the host can exchange only 1500-byte frames with the peers");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static com.github.dockerjava.api.model.Network inspect(String idOrName) {
        return DockerClientFactory.instance().client().inspectNetworkCmd().withNetworkId(idOrName).exec();
    }

    /**
     * The host's address of one family (global scope) on the bridge: the IPAM gateway as Docker
     * records it, else (Docker's default bridge records none) the interface's; null if none.
     */
    private static String hostAddress(String iface, com.github.dockerjava.api.model.Network info, boolean ipv6) {
        if (info.getIpam() != null && info.getIpam().getConfig() != null) {
            for (Ipam.Config c : info.getIpam().getConfig()) {
                if (c.getSubnet() != null && c.getSubnet().contains(":") == ipv6
                    && c.getGateway() != null && !c.getGateway().isBlank()) {
                    return c.getGateway();
                }
            }
        }
        try {
            NetworkInterface ni = NetworkInterface.getByName(iface);
            if (ni != null) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if ((a instanceof Inet6Address) == ipv6 && !a.isLinkLocalAddress()) {
                        String text = a.getHostAddress();
                        int scope = text.indexOf('%');
                        return scope < 0 ? text : text.substring(0, scope);
                    }
                }
            }
        } catch (SocketException e) {
            return null;
        }
        return null;
    }

    private static String randomUlaSubnet() {
        // fd00::/8 with a random 40-bit global ID and subnet 0 (RFC 4193): unique on this machine.
        long r = ThreadLocalRandom.current().nextLong() & 0xFF_FFFF_FFFFL;
        return String.format("fd%02x:%04x:%04x::/64", (r >>> 32) & 0xFF, (r >>> 16) & 0xFFFF, r & 0xFFFF);
    }
}
