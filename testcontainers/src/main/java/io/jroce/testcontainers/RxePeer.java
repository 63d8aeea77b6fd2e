package io.jroce.testcontainers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One real Linux rxe (Soft-RoCE) device running one shell command from rdma-core
 * (ibv_rc_pingpong, perftest, rping, ...) and then powering off: the shorthand for a
 * one-command {@link RxeContainer} whose start returns at once (the guest boots on its own, so
 * that a server and a client started one after the other boot in parallel).
 *
 * <p>The guest owns the container's addresses: {@link #ipv4()}, {@link #ipv6LinkLocal()} (rxe GID
 * 0), the IPv4-mapped GID 1 and, on a network with IPv6, {@link #ipv6()} (GID 2). It reaches the
 * host at {@link RxeNetwork#hostIpv4()}. Typical use, as server and client:
 * <pre>{@code
 * try (RxePeer server = RxePeer.start("ibv_rc_pingpong -g 1 -n 10");
 *      RxePeer client = RxePeer.builder().command("ibv_rc_pingpong -g 1 -n 10 " + server.ipv4())
 *          .retryWhileRefused().start()) {
 *     GuestResult c = client.awaitExit(Duration.ofMinutes(2));
 *     GuestResult s = server.awaitExit(Duration.ofMinutes(2));
 *     assertEquals(0, s.exitStatus(), s.console());
 * }
 * }</pre>
 * Every wait is bounded; a guest also kills its command after {@link Builder#guestTimeout} on its
 * own, so a container never outlives a crashed test by long. {@link #close()} stops the container.
 * For several commands in one guest, use a kept {@link RxeContainer}.
 */
public final class RxePeer implements AutoCloseable {
    /** Console line: rxe0 is up, the command's output follows. */
    public static final String READY_MARKER = GuestConsole.READY_MARKER;
    /** Console line prefix: the command's exit status. */
    public static final String EXIT_MARKER = GuestConsole.EXIT_MARKER;
    /** Console line prefix: the guest could not be set up. */
    public static final String ERROR_MARKER = GuestConsole.ERROR_MARKER;
    /** Console line prefix: one rxe0 GID, {@code "<index> <gid>"}. */
    public static final String GID_MARKER = GuestConsole.GID_MARKER;

    private final RxeContainer container;
    private final String command;

    private RxePeer(Builder b) {
        this.command = (b.retryWhileRefused ? "retry-refused " : "") + b.command;
        RxeContainer c = new RxeContainer().withGuestCommand(b.command)
            .withGuestTimeout(b.guestTimeout).withGuestMemoryMiB(b.memoryMiB).withoutAwaitingReady();
        if (b.network != null) {
            c.withRxeNetwork(b.network); // else Docker's default bridge, which the container looks up
        }
        if (b.name != null) {
            c.withPeerName(b.name);
        }
        if (b.retryWhileRefused) {
            c.withRetryWhileRefused();
        }
        for (Program p : b.programs) {
            c.withGuestProgram(p.source, p.extraArgs);
        }
        this.container = c;
    }

    /**
     * Starts a guest on Docker's default bridge running {@code command}.
     *
     * @param command the shell command, run in the guest
     * @return the started peer, the caller's to close
     */
    public static RxePeer start(String command) {
        return builder().command(command).start();
    }

    /** {@return a builder of a peer: its command is required} */
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
        private final List<Program> programs = new ArrayList<>();

        private Builder() {
        }

        /**
         * A C program of the user's for the guest, compiled on this host when the peer starts
         * ({@link RxeContainer#withGuestProgram}) and on the guest's PATH under its source's name
         * without {@code .c}.
         *
         * @param cSource the C source, compiled on this host against the image's libibverbs and librdmacm
         * @param extraArgs more arguments for the compiler (libraries, definitions)
         * @return this builder
         */
        public Builder program(Path cSource, String... extraArgs) {
            programs.add(new Program(Objects.requireNonNull(cSource, "cSource"), extraArgs.clone()));
            return this;
        }

        /**
         * A name for the logs (default {@code rxe-N}).
         *
         * @param name the name in the logs
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * The shell command run in the guest after {@code rdma link add rxe0 type rxe netdev eth0}
         * (busybox sh; rdma-core's ibverbs-utils, perftest and rdmacm-utils, {@code rdma}, {@code
         * ibv_devinfo} are on the PATH). At most about 1000 characters.
         *
         * @param command the shell command, run in the guest
         * @return this builder
         */
        public Builder command(String command) {
            this.command = Objects.requireNonNull(command, "command");
            return this;
        }

        /**
         * For a client: run the command again while it fails only because its server is not
         * listening yet ("Couldn't connect to", an RDMA CM reject), up to 120 times a second apart.
         *
         * @return this builder
         */
        public Builder retryWhileRefused() {
            this.retryWhileRefused = true;
            return this;
        }

        /**
         * The network to join (default: Docker's default bridge). The caller closes it.
         *
         * @param network the network to join
         * @return this builder
         */
        public Builder network(RxeNetwork network) {
            this.network = network;
            return this;
        }

        /**
         * The guest kills the command after this long (default 5 minutes): a guard, not a pace.
         *
         * @param timeout how long the guest lets the command run, at least 1 s
         * @return this builder
         */
        public Builder guestTimeout(Duration timeout) {
            if (timeout.toSeconds() < 1) {
                throw new IllegalArgumentException("guest timeout below 1 s: " + timeout);
            }
            this.guestTimeout = timeout;
            return this;
        }

        /**
         * Guest memory (default 320 MiB).
         *
         * @param mib the guest's memory in MiB
         * @return this builder
         */
        public Builder memoryMiB(int mib) {
            this.memoryMiB = mib;
            return this;
        }

        /**
         * Starts the container (the guest then boots on its own: see {@link #awaitReady}).
         *
         * @return the started peer, the caller's to close
         */
        public RxePeer start() {
            if (command == null) {
                throw new IllegalStateException("no command");
            }
            RxePeer peer = new RxePeer(this);
            try {
                peer.container.start();
            } catch (RuntimeException e) {
                peer.close();
                throw e;
            }
            return peer;
        }
    }

    private record Program(Path source, String[] extraArgs) {
    }

    /** {@return the name in the logs} */
    public String name() {
        return container.peerName();
    }

    /** {@return the command as the guest runs it} */
    public String command() {
        return command;
    }

    /** {@return the guest's IPv4 address (the container's)} */
    public String ipv4() {
        return container.ipv4();
    }

    /** {@return the prefix length of {@link #ipv4()}} */
    public int ipv4PrefixLength() {
        return container.ipv4PrefixLength();
    }

    /** {@return the guest's global IPv6 address, on a network with IPv6} */
    public Optional<String> ipv6() {
        return container.ipv6();
    }

    /** {@return the guest's link-local address (fe80:: with the EUI-64 of its MAC), rxe's GID 0; scope: {@link RxeNetwork#hostInterface()}} */
    public String ipv6LinkLocal() {
        return container.ipv6LinkLocal();
    }

    /** {@return the guest NIC's MAC address (the container's)} */
    public String mac() {
        return container.mac();
    }

    /** {@return the container's main process on this host (QEMU): {@code nsenter -t <pid> -n} enters its network namespace} */
    public long containerPid() {
        return container.containerPid();
    }

    /** {@return the network the peer is on; the host is at {@link RxeNetwork#hostIpv4()} there} */
    public RxeNetwork network() {
        return container.rxeNetwork();
    }

    /**
     * Waits until rxe0 is up in the guest and returns its GID table as the guest printed it
     * (index order; e.g. {@code fe80:0000:...}, {@code 0000:...:ffff:ac11:0002}).
     *
     * @param timeout the longest wait
     * @return the GIDs, index 0 first
     * @throws IllegalStateException if the guest fails or ends first, or the wait runs out
     */
    public List<String> awaitReady(Duration timeout) {
        return container.awaitReady(timeout);
    }

    /**
     * Waits for a console line containing {@code fragment} and returns it (e.g. "local address:" of a server).
     *
     * @param fragment what the line contains
     * @param timeout the longest wait
     * @return the first such line
     */
    public String awaitOutput(String fragment, Duration timeout) {
        return container.awaitOutput(fragment, timeout);
    }

    /**
     * Waits until the command has ended and the guest reported its exit status.
     *
     * @param timeout the longest wait
     * @return how the command ended
     * @throws IllegalStateException if the guest could not be set up, stopped without reporting,
     *                               or the wait runs out
     */
    public GuestResult awaitExit(Duration timeout) {
        return container.awaitExit(timeout);
    }

    /** {@return everything the container printed so far, one entry per line} */
    public List<String> consoleLines() {
        return container.consoleLines();
    }

    /** Stops and removes the container (the guest with it); a network given to the builder stays the caller's. */
    @Override
    public void close() {
        if (container.getContainerId() != null) {
            container.stop();
        }
    }
}
