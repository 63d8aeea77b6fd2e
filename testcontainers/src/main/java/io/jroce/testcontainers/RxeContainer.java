package io.jroce.testcontainers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Device;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Linux rxe (Soft-RoCE) device: a container of the image {@link RxeLab#imageName()} whose
 * QEMU guest boots Debian's kernel, adds {@code rxe0} on its NIC and takes over the container's
 * network identity (addresses, MAC). rdma-core's, perftest's and librdmacm's tools are in the
 * guest, and C programs of the user's can be added ({@link #withGuestProgram}).
 *
 * <p>A guest runs either
 * <ul>
 * <li><b>one command</b> ({@link #withGuestCommand}): it boots, runs it, powers off, and the
 *     container exits with its status ({@link #awaitExit}); or
 * <li><b>many</b> (the default, a kept guest): {@link #start()} returns once rxe0 is up, and
 *     {@link #run} / {@link #launch} hand it commands, several at once if need be, until
 *     {@link #stop()}. A boot costs seconds under QEMU's emulation; a command in a kept guest
 *     costs what the command does (docs/testing-against-rxe.md has the figures).
 * </ul>
 * <pre>{@code
 * try (RxeContainer rxe = new RxeContainer()) {
 *     rxe.start();                                              // returns when rxe0 is up
 *     GuestResult info = rxe.run("ibv_devinfo -d rxe0", Duration.ofMinutes(1));
 *     GuestCommand server = rxe.launch("ibv_rc_pingpong -g 1 -n 10");
 *     // ... a jroce client connects to rxe.ipv4() ...
 *     assertEquals(0, server.awaitExit(Duration.ofMinutes(2)).exitStatus());
 * }
 * }</pre>
 * Several containers boot in parallel with Testcontainers' {@code Startables.deepStart}. Every
 * wait is bounded, and the guest ends itself after {@link #withGuestTimeout} (a guard against a
 * test that died without stopping it: this environment runs Testcontainers without Ryuk).
 */
public class RxeContainer extends GenericContainer<RxeContainer> {
    /** The image repository this class runs; a compatible substitute must declare itself so. */
    public static final DockerImageName DEFAULT_IMAGE_NAME = DockerImageName.parse(RxeLab.IMAGE_REPOSITORY);
    /** Where the guest finds programs added with {@link #withGuestProgram}; on its PATH. */
    public static final String GUEST_PROGRAM_DIR = "/usr/local/bin";

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final String imageName;
    private final GuestConsole console;
    private final AtomicInteger nextCommand = new AtomicInteger();
    private String peerName;
    private String guestCommand;
    private boolean retryWhileRefused;
    private RxeNetwork network; // null: Docker's default bridge, looked up when needed
    private Duration guestTimeout = Duration.ofMinutes(5);
    private int memoryMiB = 320;
    private boolean awaitReadyOnStart = true;
    private String ipv4;
    private int ipv4PrefixLength;
    private String ipv6;
    private String mac;

    /** The image built from this checkout's interop/rxe-image ({@link RxeLab#imageName()}). */
    public RxeContainer() {
        this(DockerImageName.parse(RxeLab.imageName()));
    }

    /**
     * Another build of the rxe peer image ({@code jroce/rxe-peer:TAG}, or one declared compatible).
     *
     * @param image the image to run
     */
    public RxeContainer(DockerImageName image) {
        super(image);
        image.assertCompatibleWith(DEFAULT_IMAGE_NAME);
        this.imageName = image.asCanonicalNameString();
        this.peerName = "rxe-" + COUNTER.incrementAndGet();
        this.console = new GuestConsole(peerName, this::describeCommand, this::containerExitCode);
        withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
            .withCapAdd(Capability.NET_ADMIN)
            .withDevices(Device.parse("/dev/net/tun")));
        withStartupCheckStrategy(new StartedIsEnough());
        waitingFor(new GuestReady());
        withStartupTimeout(Duration.ofMinutes(3));
        withLogConsumer(console::accept);
    }

    /**
     * A name for the logs and the container's label (default {@code rxe-N}).
     *
     * @param name the name in the logs
     * @return this container
     */
    public RxeContainer withPeerName(String name) {
        this.peerName = Objects.requireNonNull(name, "name");
        return self();
    }

    /**
     * Makes this a one-command guest: the shell command runs after {@code rxe0} is up (busybox sh;
     * at most about 1000 characters, it travels on the kernel's command line), then the guest
     * powers off and the container exits with its status.
     *
     * @param command the shell command, run in the guest
     * @return this container
     */
    public RxeContainer withGuestCommand(String command) {
        this.guestCommand = Objects.requireNonNull(command, "command");
        return self();
    }

    /**
     * For a one-command client: run it again while it fails only because its server is not
     * listening yet ("Couldn't connect to", an RDMA CM reject), up to 120 times a second apart. In a
     * kept guest, prefix a command with {@code retry-refused } for the same.
     *
     * @return this container
     */
    public RxeContainer withRetryWhileRefused() {
        this.retryWhileRefused = true;
        return self();
    }

    /**
     * The network to join (default: Docker's default bridge). The caller closes it.
     *
     * @param network the network to join
     * @return this container
     */
    public RxeContainer withRxeNetwork(RxeNetwork network) {
        this.network = Objects.requireNonNull(network, "network");
        return self();
    }

    /**
     * A one-command guest kills its command after this long; a kept guest powers off after this
     * long (default 5 minutes). A guard, not a pace: it ends a guest a crashed test left behind.
     *
     * @param timeout the guest's time, at least 1 s
     * @return this container
     */
    public RxeContainer withGuestTimeout(Duration timeout) {
        if (timeout.toSeconds() < 1) {
            throw new IllegalArgumentException("guest timeout below 1 s: " + timeout);
        }
        this.guestTimeout = timeout;
        return self();
    }

    /**
     * Guest memory (default 320 MiB).
     *
     * @param mib the guest's memory in MiB
     * @return this container
     */
    public RxeContainer withGuestMemoryMiB(int mib) {
        if (mib < 128) {
            throw new IllegalArgumentException("guest memory below 128 MiB: " + mib);
        }
        this.memoryMiB = mib;
        return self();
    }

    /**
     * Puts a host file into the guest at {@code guestPath} (absolute) with mode 0755, given before
     * {@link #start()} (the file joins the guest's initramfs when it boots).
     *
     * @param hostFile the file on this host
     * @param guestPath where the file goes in the guest
     * @return this container
     */
    public RxeContainer withGuestFile(Path hostFile, String guestPath) {
        Objects.requireNonNull(hostFile, "hostFile");
        if (guestPath == null || !guestPath.startsWith("/") || guestPath.contains("..")) {
            throw new IllegalArgumentException("the guest path must be absolute, without '..': " + guestPath);
        }
        return withCopyFileToContainer(MountableFile.forHostPath(hostFile, 0755), "/rxe/guest" + guestPath);
    }

    /**
     * Compiles a C program of the user's for the guest ({@link GuestProgram#compile}: the host's
     * {@code cc} against the image's libibverbs and librdmacm; {@code extraArgs} e.g. {@code -lrdmacm})
     * and puts it on the guest's PATH in {@value #GUEST_PROGRAM_DIR}, named as the source without
     * {@code .c}. Compiles at once: a compiler error is thrown here, with its output.
     *
     * @param cSource the C source, compiled on this host against the image's libibverbs and librdmacm
     * @param extraArgs more arguments for the compiler (libraries, definitions)
     * @return this container
     */
    public RxeContainer withGuestProgram(Path cSource, String... extraArgs) {
        Path binary = GuestProgram.compile(imageName, cSource, extraArgs);
        return withGuestFile(binary, GUEST_PROGRAM_DIR + "/" + binary.getFileName());
    }

    /** For {@link RxePeer}: {@link #start()} returns as soon as the container runs. */
    RxeContainer withoutAwaitingReady() {
        this.awaitReadyOnStart = false;
        return self();
    }

    @Override
    protected void configure() {
        // the image: built here on first use, or a clear word why not (never a pull)
        RxeLab.ensureImage(imageName).ifPresent(m -> {
            throw new IllegalStateException("rxe peer unavailable: " + m);
        });
        withLabel("io.jroce.rxe-peer", peerName);
        withEnv("RXE_TIMEOUT", Long.toString(guestTimeout.toSeconds()));
        withEnv("RXE_MEM", Integer.toString(memoryMiB));
        if (guestCommand != null) {
            // one argument: the entrypoint gives it to sh -c in the guest
            withCommand((retryWhileRefused ? "retry-refused " : "") + guestCommand);
        } else {
            withEnv("RXE_KEEP", "1");
        }
        if (rxeNetwork().testcontainersNetwork() != null) {
            withNetwork(rxeNetwork().testcontainersNetwork());
        }
        logger().info("{}: starting {} {}", peerName, imageName, describeCommand());
    }

    @Override
    protected void containerIsStarted(InspectContainerResponse info) {
        Map<String, ContainerNetwork> networks = info.getNetworkSettings().getNetworks();
        if (networks.size() != 1) {
            throw new IllegalStateException(peerName + ": expected one network, found " + networks.keySet());
        }
        ContainerNetwork n = networks.values().iterator().next();
        ipv4 = n.getIpAddress();
        ipv4PrefixLength = n.getIpPrefixLen() == null ? 0 : n.getIpPrefixLen();
        ipv6 = n.getGlobalIPv6Address() == null || n.getGlobalIPv6Address().isBlank() ? null : n.getGlobalIPv6Address();
        mac = n.getMacAddress();
        logger().info("{}: container {} at {}{} mac {}", peerName, getContainerId().substring(0, 12), ipv4,
            ipv6 == null ? "" : " " + ipv6, mac);
    }

    /** {@return the name in the logs} */
    public String peerName() {
        return peerName;
    }

    /** {@return whether the guest takes commands ({@link #run}, {@link #launch}), rather than running one} */
    public boolean isKept() {
        return guestCommand == null;
    }

    /** {@return the guest's IPv4 address (the container's)} */
    public String ipv4() {
        return started(ipv4);
    }

    /** {@return the prefix length of {@link #ipv4()}} */
    public int ipv4PrefixLength() {
        started(ipv4);
        return ipv4PrefixLength;
    }

    /** {@return the guest's global IPv6 address, on a network with IPv6 (rxe's GID 2)} */
    public Optional<String> ipv6() {
        started(ipv4);
        return Optional.ofNullable(ipv6);
    }

    /** {@return the guest's link-local address (fe80:: with the EUI-64 of its MAC), rxe's GID 0; scope: {@link RxeNetwork#hostInterface()}} */
    public String ipv6LinkLocal() {
        return linkLocal(started(mac));
    }

    /** {@return the guest NIC's MAC address (the container's)} */
    public String mac() {
        return started(mac);
    }

    /** {@return the network the guest is on; the host is at {@link RxeNetwork#hostIpv4()} there} */
    public synchronized RxeNetwork rxeNetwork() {
        if (network == null) {
            network = RxeNetwork.dockerDefault();
        }
        return network;
    }

    /** {@return the container's main process on this host (QEMU): {@code nsenter -t <pid> -n} enters its network namespace} */
    public long containerPid() {
        Long pid = getDockerClient().inspectContainerCmd(getContainerId()).exec().getState().getPidLong();
        if (pid == null || pid <= 0) {
            throw new IllegalStateException(peerName + ": the container does not run");
        }
        return pid;
    }

    /**
     * Waits until rxe0 is up in the guest and returns its GID table as the guest printed it (index
     * order: 0 the fe80:: link-local, 1 the IPv4-mapped address, 2.. global IPv6).
     *
     * @param timeout the longest wait
     * @return the GIDs, index 0 first
     * @throws IllegalStateException if the guest fails or ends first, or the wait runs out
     */
    public List<String> awaitReady(Duration timeout) {
        console.await(GuestConsole::ready, timeout, "rxe0 to come up");
        return console.gids();
    }

    /**
     * Waits for a console line containing {@code fragment} and returns it (e.g. "local address:" of a server).
     *
     * @param fragment what the line contains
     * @param timeout the longest wait
     * @return the first such line
     */
    public String awaitOutput(String fragment, Duration timeout) {
        String[] found = new String[1];
        console.await(c -> (found[0] = c.firstLineContaining(fragment, -1)) != null, timeout,
            "a line containing \"" + fragment + "\"");
        return found[0];
    }

    /**
     * A one-command guest: waits until the command has ended and the guest reported its exit status.
     *
     * @param timeout the longest wait
     * @return how the command ended
     * @throws IllegalStateException for a kept guest, or if the guest could not be set up, stopped
     *                               without reporting, or the wait runs out
     */
    public GuestResult awaitExit(Duration timeout) {
        if (isKept()) {
            throw new IllegalStateException(peerName + " is a kept guest: its commands end one by one (GuestCommand.awaitExit)");
        }
        console.await(GuestConsole::exited, timeout, "the command to end");
        return console.result();
    }

    /**
     * Hands a kept guest a shell command (busybox sh, stdin empty; below about 3000 characters) and
     * returns at once: it runs in the guest's background, beside any others.
     *
     * @param command the shell command, run in the guest
     * @return the command, running
     * @throws IllegalStateException for a one-command guest, before {@link #start()}, or if the
     *                               command cannot be handed over
     */
    public GuestCommand launch(String command) {
        Objects.requireNonNull(command, "command");
        if (!isKept()) {
            throw new IllegalStateException(peerName + " runs one command (withGuestCommand): it takes no others");
        }
        started(ipv4);
        int id = nextCommand.incrementAndGet();
        Container.ExecResult r;
        try {
            r = execInContainer("/rxe/guest-run", Integer.toString(id), command);
        } catch (IOException e) {
            throw new IllegalStateException(peerName + ": cannot hand the guest \"" + command + "\": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(peerName + ": interrupted handing the guest \"" + command + "\"", e);
        }
        if (r.getExitCode() != 0) {
            throw new IllegalStateException(peerName + ": cannot hand the guest \"" + command + "\": "
                + (r.getStderr() + r.getStdout()).trim());
        }
        return new GuestCommand(id, command, console);
    }

    /**
     * {@link #launch} and {@link GuestCommand#awaitExit}: the command's result, whatever its status.
     *
     * @param command the shell command, run in the guest
     * @param timeout the longest wait
     * @return how the command ended
     */
    public GuestResult run(String command, Duration timeout) {
        return launch(command).awaitExit(timeout);
    }

    /** {@return everything the container printed so far, one entry per line} */
    public List<String> consoleLines() {
        return console.lines();
    }

    private String started(String value) {
        if (value == null) {
            throw new IllegalStateException(peerName + " is not started");
        }
        return value;
    }

    private String describeCommand() {
        return guestCommand == null ? "(kept guest)" : "with: " + (retryWhileRefused ? "retry-refused " : "") + guestCommand;
    }

    private String containerExitCode() {
        try {
            return String.valueOf(getDockerClient().inspectContainerCmd(getContainerId()).exec().getState().getExitCodeLong());
        } catch (RuntimeException e) {
            return "unknown";
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

    /** The container counts as started once it runs: the guest's progress is read from the console. */
    private static final class StartedIsEnough extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(com.github.dockerjava.api.DockerClient dockerClient, String containerId) {
            return StartupStatus.SUCCESSFUL;
        }
    }

    /** Started means rxe0 is up in the guest (unless {@link #withoutAwaitingReady}). */
    private final class GuestReady extends AbstractWaitStrategy {
        @Override
        protected void waitUntilReady() {
            if (awaitReadyOnStart) {
                awaitReady(startupTimeout);
            }
        }
    }
}
