package io.jroce.testcontainers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Device;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * One real Linux rxe (Soft-RoCE) device, in a QEMU guest in a container of the image
 * {@link RxeLab#imageName()}, running one shell command from rdma-core (ibv_rc_pingpong, perftest,
 * rping, ...) and then powering off.
 *
 * <p>The guest owns the container's addresses: {@link #ipv4()}, {@link #ipv6LinkLocal()} (rxe GID
 * 0), the IPv4-mapped GID 1 and, on a network with IPv6, {@link #ipv6()} (GID 2). It reaches the
 * host at {@link RxeNetwork#hostIpv4()}. Typical use, as server and client:
 * <pre>{@code
 * try (RxePeer server = RxePeer.start("ibv_rc_pingpong -g 1 -n 10");
 *      RxePeer client = RxePeer.builder().command("ibv_rc_pingpong -g 1 -n 10 " + server.ipv4())
 *          .retryWhileRefused().start()) {
 *     RxePeer.Result c = client.awaitExit(Duration.ofMinutes(2));
 *     RxePeer.Result s = server.awaitExit(Duration.ofMinutes(2));
 *     assertEquals(0, s.exitStatus(), s.console());
 * }
 * }</pre>
 * Every wait is bounded; a guest also kills its command after {@link Builder#guestTimeout} on its
 * own, so a container never outlives a crashed test by long. {@link #close()} stops the container.
 */
public final class RxePeer implements AutoCloseable {
    /** Console line: rxe0 is up, the command's output follows. */
    public static final String READY_MARKER = "RXE-PEER-READY";
    /** Console line prefix: the command's exit status. */
    public static final String EXIT_MARKER = "RXE-PEER-EXIT ";
    /** Console line prefix: the guest could not be set up. */
    public static final String ERROR_MARKER = "RXE-PEER-ERROR ";
    /** Console line prefix: one rxe0 GID, {@code "<index> <gid>"}. */
    public static final String GID_MARKER = "RXE-PEER-GID ";

    private static final Logger LOG = LoggerFactory.getLogger(RxePeer.class);
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final String name;
    private final String command;
    private final RxeNetwork network;
    private final boolean ownsNetwork;
    private final GenericContainer<?> container;
    private final Console console;
    private String ipv4;
    private int ipv4PrefixLength;
    private String ipv6;
    private String mac;

    private RxePeer(Builder b) {
        this.name = b.name != null ? b.name : "rxe-peer-" + COUNTER.incrementAndGet();
        this.command = (b.retryWhileRefused ? "retry-refused " : "") + b.command;
        this.ownsNetwork = b.network == null;
        this.network = b.network != null ? b.network : RxeNetwork.dockerDefault();
        this.console = new Console(name);
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(RxeLab.imageName()))
            .withCommand(command) // one argument: the entrypoint gives it to sh -c in the guest
            .withEnv("RXE_TIMEOUT", Long.toString(b.guestTimeout.toSeconds()))
            .withEnv("RXE_MEM", Integer.toString(b.memoryMiB))
            .withLabel("io.jroce.rxe-peer", name)
            .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
                .withCapAdd(Capability.NET_ADMIN)
                .withDevices(Device.parse("/dev/net/tun")))
            .withStartupCheckStrategy(new StartedIsEnough())
            .waitingFor(new NoWait())
            .withLogConsumer(console::accept);
        if (network.testcontainersNetwork() != null) {
            c.withNetwork(network.testcontainersNetwork());
        }
        this.container = c;
    }

    /** Starts a guest on Docker's default bridge running {@code command}. */
    public static RxePeer start(String command) {
        return builder().command(command).start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What to run, and where. */
    public static final class Builder {
        private String name;
        private String command;
        private boolean retryWhileRefused;
        private RxeNetwork network;
        private Duration guestTimeout = Duration.ofMinutes(5);
        private int memoryMiB = 320;

        private Builder() {
        }

        /** A name for the logs (default {@code rxe-peer-N}). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * The shell command run in the guest after {@code rdma link add rxe0 type rxe netdev eth0}
         * (busybox sh; rdma-core's ibverbs-utils, perftest and rdmacm-utils, {@code rdma}, {@code
         * ibv_devinfo} are on the PATH). At most about 1000 characters.
         */
        public Builder command(String command) {
            this.command = Objects.requireNonNull(command, "command");
            return this;
        }

        /**
         * For a client: run the command again while it fails only because its server is not
         * listening yet ("Couldn't connect to", an RDMA CM reject), up to 120 times a second apart.
         */
        public Builder retryWhileRefused() {
            this.retryWhileRefused = true;
            return this;
        }

        /** The network to join (default: Docker's default bridge). The caller closes it. */
        public Builder network(RxeNetwork network) {
            this.network = network;
            return this;
        }

        /** The guest kills the command after this long (default 5 minutes): a guard, not a pace. */
        public Builder guestTimeout(Duration timeout) {
            if (timeout.toSeconds() < 1) {
                throw new IllegalArgumentException("guest timeout below 1 s: " + timeout);
            }
            this.guestTimeout = timeout;
            return this;
        }

        /** Guest memory (default 320 MiB). */
        public Builder memoryMiB(int mib) {
            this.memoryMiB = mib;
            return this;
        }

        /** Starts the container (the guest then boots on its own: see {@link #awaitReady}). */
        public RxePeer start() {
            if (command == null) {
                throw new IllegalStateException("no command");
            }
            RxePeer peer = new RxePeer(this);
            try {
                peer.startContainer();
            } catch (RuntimeException e) {
                peer.close();
                throw e;
            }
            return peer;
        }
    }

    private void startContainer() {
        LOG.info("{}: starting {} with: {}", name, RxeLab.imageName(), command);
        container.start();
        InspectContainerResponse info = container.getContainerInfo();
        Map<String, ContainerNetwork> networks = info.getNetworkSettings().getNetworks();
        if (networks.size() != 1) {
            throw new IllegalStateException(name + ": expected one network, found " + networks.keySet());
        }
        ContainerNetwork n = networks.values().iterator().next();
        ipv4 = n.getIpAddress();
        ipv4PrefixLength = n.getIpPrefixLen() == null ? 0 : n.getIpPrefixLen();
        ipv6 = n.getGlobalIPv6Address() == null || n.getGlobalIPv6Address().isBlank() ? null : n.getGlobalIPv6Address();
        mac = n.getMacAddress();
        LOG.info("{}: container {} at {}{} mac {}", name, container.getContainerId().substring(0, 12), ipv4,
            ipv6 == null ? "" : " " + ipv6, mac);
    }

    /** The name in the logs. */
    public String name() {
        return name;
    }

    /** The command as the guest runs it. */
    public String command() {
        return command;
    }

    /** The guest's IPv4 address (the container's). */
    public String ipv4() {
        return ipv4;
    }

    /** Prefix length of {@link #ipv4()}. */
    public int ipv4PrefixLength() {
        return ipv4PrefixLength;
    }

    /** The guest's global IPv6 address, on a network with IPv6. */
    public Optional<String> ipv6() {
        return Optional.ofNullable(ipv6);
    }

    /** The guest's link-local address (fe80:: with the EUI-64 of its MAC), rxe's GID 0; scope: {@link RxeNetwork#hostInterface()}. */
    public String ipv6LinkLocal() {
        return linkLocal(mac);
    }

    /** The guest NIC's MAC address (the container's). */
    public String mac() {
        return mac;
    }

    /** The container's main process on this host (QEMU): {@code nsenter -t <pid> -n} enters its network namespace. */
    public long containerPid() {
        Long pid = container.getDockerClient().inspectContainerCmd(container.getContainerId()).exec().getState().getPidLong();
        if (pid == null || pid <= 0) {
            throw new IllegalStateException(name + ": the container does not run");
        }
        return pid;
    }

    /** The network the peer is on; the host is at {@link RxeNetwork#hostIpv4()} there. */
    public RxeNetwork network() {
        return network;
    }

    /**
     * Waits until rxe0 is up in the guest and returns its GID table as the guest printed it
     * (index order; e.g. {@code fe80:0000:...}, {@code 0000:...:ffff:ac11:0002}).
     *
     * @throws IllegalStateException if the guest fails or ends first, or the wait runs out
     */
    public List<String> awaitReady(Duration timeout) {
        console.await(c -> c.ready, timeout, "rxe0 to come up");
        return console.gids();
    }

    /** Waits for a console line containing {@code fragment} and returns it (e.g. "local address:" of a server). */
    public String awaitOutput(String fragment, Duration timeout) {
        String[] found = new String[1];
        console.await(c -> (found[0] = c.firstLineContaining(fragment)) != null, timeout,
            "a line containing \"" + fragment + "\"");
        return found[0];
    }

    /**
     * Waits until the command has ended and the guest reported its exit status.
     *
     * @throws IllegalStateException if the guest could not be set up, stopped without reporting,
     *                               or the wait runs out
     */
    public Result awaitExit(Duration timeout) {
        console.await(c -> c.exitStatus != null, timeout, "the command to end");
        return console.result();
    }

    /** Everything the container printed so far, one entry per line. */
    public List<String> consoleLines() {
        return console.lines();
    }

    /** Stops and removes the container (the guest with it); also removes a network it created. */
    @Override
    public void close() {
        try {
            if (container.getContainerId() != null) {
                container.stop();
            }
        } finally {
            if (ownsNetwork) {
                network.close();
            }
        }
    }

    /**
     * How the command ended: its exit status, what it printed (the lines between the ready and the
     * exit markers) and the whole console for failure messages.
     */
    public record Result(int exitStatus, List<String> output, String console) {
        /** The command's output as one text. */
        public String outputText() {
            return String.join("\n", output);
        }
    }

    /** fe80:: + modified EUI-64 of a MAC address (RFC 4291 appendix A), as Linux forms it. */
    static String linkLocal(String mac) {
        String[] b = mac.split(":");
        int b0 = Integer.parseInt(b[0], 16) ^ 0x02;
        return String.format(Locale.ROOT, "fe80::%x:%x:%x:%x",
            (b0 << 8) | Integer.parseInt(b[1], 16),
            (Integer.parseInt(b[2], 16) << 8) | 0xff,
            0xfe00 | Integer.parseInt(b[3], 16),
            (Integer.parseInt(b[4], 16) << 8) | Integer.parseInt(b[5], 16));
    }

    /** The console as the container prints it, parsed for the markers; waiters block on it. */
    private final class Console {
        private final String name;
        private final List<String> lines = new ArrayList<>();
        private final List<String> gids = new ArrayList<>();
        private final StringBuilder partial = new StringBuilder();
        private boolean ready;
        private int readyLine = -1;
        private Integer exitStatus;
        private int exitLine;
        private String error;
        private boolean ended;

        Console(String name) {
            this.name = name;
        }

        void accept(OutputFrame frame) {
            synchronized (this) {
                if (frame.getType() == OutputFrame.OutputType.END) {
                    if (partial.length() > 0) {
                        line(partial.toString());
                        partial.setLength(0);
                    }
                    ended = true;
                } else {
                    partial.append(frame.getUtf8String());
                    int nl;
                    while ((nl = partial.indexOf("\n")) >= 0) {
                        line(partial.substring(0, nl).replace("\r", ""));
                        partial.delete(0, nl + 1);
                    }
                }
                notifyAll();
            }
        }

        private void line(String line) {
            LOG.info("[{}] {}", name, line);
            lines.add(line);
            if (line.equals(READY_MARKER)) {
                ready = true;
                readyLine = lines.size() - 1;
            } else if (line.startsWith(GID_MARKER)) {
                String[] f = line.substring(GID_MARKER.length()).trim().split(" ");
                if (f.length == 2) {
                    gids.add(f[1]);
                }
            } else if (line.startsWith(ERROR_MARKER)) {
                error = line.substring(ERROR_MARKER.length());
            } else if (line.startsWith(EXIT_MARKER) && exitStatus == null) {
                try {
                    exitStatus = Integer.parseInt(line.substring(EXIT_MARKER.length()).trim());
                    exitLine = lines.size() - 1;
                } catch (NumberFormatException e) {
                    // a command printed something that looks like the marker: not ours
                }
            }
        }

        synchronized List<String> lines() {
            return List.copyOf(lines);
        }

        synchronized List<String> gids() {
            return List.copyOf(gids);
        }

        synchronized String firstLineContaining(String fragment) {
            for (String l : lines) {
                if (l.contains(fragment)) {
                    return l;
                }
            }
            return null;
        }

        synchronized Result result() {
            List<String> output = readyLine < 0 ? List.of() : List.copyOf(lines.subList(readyLine + 1, exitLine));
            return new Result(exitStatus, output, String.join("\n", lines));
        }

        /** Blocks until the condition holds; fails fast when the guest can no longer make it hold. */
        synchronized void await(Predicate<Console> condition, Duration timeout, String what) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                if (error != null) {
                    throw new IllegalStateException(name + ": the rxe guest could not be set up: " + error + dump());
                }
                if (condition.test(this)) {
                    return;
                }
                if (ended || exitStatus != null) {
                    throw new IllegalStateException(name + ": the guest "
                        + (exitStatus != null ? "ended (status " + exitStatus + ")" : "stopped (container status "
                        + containerExitCode() + ")") + " before " + what + dump());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException(name + ": no " + what + " within " + timeout + dump());
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(name + ": interrupted waiting for " + what, e);
                }
            }
        }

        private String dump() {
            return "\n--- console of " + name + " (" + command + ") ---\n" + String.join("\n", lines);
        }
    }

    private String containerExitCode() {
        try {
            DockerClient client = container.getDockerClient();
            Long code = client.inspectContainerCmd(container.getContainerId()).exec().getState().getExitCodeLong();
            return String.valueOf(code);
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    /** The container counts as started once it runs: the guest's progress is read from the console. */
    private static final class StartedIsEnough extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
            return StartupStatus.SUCCESSFUL;
        }
    }

    /** No port to wait for: {@link #awaitReady} and {@link #awaitOutput} wait on the console. */
    private static final class NoWait extends AbstractWaitStrategy {
        @Override
        protected void waitUntilReady() {
        }
    }
}
