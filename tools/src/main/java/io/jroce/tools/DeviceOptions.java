package io.jroce.tools;

import io.jroce.rnic.Configuration;
import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.RdmaDevice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jroce device a command opens: what a kernel RDMA device knows by itself and a jroce device
 * is told on the command line ({@code --bind}, {@code --udp-port}, {@code --peer-udp-port},
 * {@code --pcap}), plus its name (each tool's {@code -d}).
 *
 * @param name        the device's name
 * @param binds       its IP address literals, one GID each, in GID index order
 * @param udpPort     the RoCE UDP port it binds
 * @param peerUdpPort the RoCE UDP port of the peer (the same unless told otherwise)
 * @param pcap        where it captures what it sends and receives, or null
 * @param progress    which thread runs it ({@code --progress}), or null for the tool's default
 */
public record DeviceOptions(String name, List<String> binds, int udpPort, int peerUdpPort, Path pcap,
                            ProgressMode progress) {
    /** The device name when {@code -d} is not given. */
    public static final String DEFAULT_NAME = "jroce0";
    /** The address when {@code --bind} is not given. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    /**
     * Copies the list of addresses.
     *
     * @param name the device's name
     * @param binds its IP address literals
     * @param udpPort the RoCE UDP port it binds
     * @param peerUdpPort the RoCE UDP port of the peer
     * @param pcap where it captures, or null
     * @param progress which thread runs it, or null
     */
    public DeviceOptions {
        binds = List.copyOf(binds);
    }

    /**
     * The builder of the device, for a command that sets more (perftest's busy polling).
     *
     * @return a builder with the name, addresses, port, capture and progress mode set
     */
    public SoftRnic.Builder builder() {
        SoftRnic.Builder builder = SoftRnic.builder().name(name).udpPort(udpPort);
        if (progress != null) {
            builder.progressMode(progress);
        }
        binds.forEach(builder::address);
        if (pcap != null) {
            builder.pcap(pcap);
        }
        return builder;
    }

    /**
     * A device on one address without a peer, as the demo opens its two.
     *
     * @param name the device's name
     * @param address its IP address literal
     * @param udpPort its RoCE UDP port
     * @param pcap where it captures, or null
     * @return the options
     */
    public static DeviceOptions of(String name, String address, int udpPort, Path pcap) {
        return new DeviceOptions(name, List.of(address), udpPort, udpPort, pcap, null);
    }

    /**
     * These options with the progress mode a tool defaults to, unless {@code --progress} or
     * {@code -Djroce.progress} chose one: the perftest and pingpong twins busy-poll as their
     * originals do, so they run in the invoker mode (docs/progress-modes.md).
     *
     * @param toolDefault the tool's own default mode
     * @return these options with the progress mode to use
     */
    public DeviceOptions withProgressDefault(ProgressMode toolDefault) {
        return progress != null ? this
            : new DeviceOptions(name, binds, udpPort, peerUdpPort, pcap, Configuration.progressMode(toolDefault));
    }

    /**
     * Opens the device; what SoftRnic's builder throws goes to the caller, which words it as its tool does.
     *
     * @return the open device
     */
    public RdmaDevice open() {
        return builder().open();
    }

    /** Collects the device options from a command line: {@link #options()} goes into the tool's table. */
    public static final class Parser {
        private String name;
        private final List<String> binds = new ArrayList<>();
        private Integer udpPort;
        private int peerUdpPort = -1;
        private Path pcap;
        private ProgressMode progress;
        private final OptionSpec udpPortOption = OptionSpec.value(OptionSpec.NO_SHORT, "udp-port",
            (spelling, value) -> udpPort = Getopt.integer(spelling, value, 1, 65535));

        /**
         * The device's name, from the tool's {@code -d}: a device of the {@link DeviceRegistry}.
         *
         * @param deviceName the name
         */
        public void name(String deviceName) {
            name = deviceName;
        }

        /**
         * {@code --bind}, {@code --udp-port}, {@code --peer-udp-port} and {@code --pcap}: for a tool with a peer.
         *
         * @return the options, for the tool's getopt table
         */
        public List<OptionSpec> options() {
            List<OptionSpec> options = new ArrayList<>(localOptions());
            options.add(OptionSpec.value(OptionSpec.NO_SHORT, "peer-udp-port",
                (spelling, value) -> peerUdpPort = Getopt.integer(spelling, value, 1, 65535)));
            return options;
        }

        /**
         * {@code --bind}, {@code --udp-port} and {@code --pcap}: for a device without a peer.
         *
         * @return the options, for the tool's getopt table
         */
        public List<OptionSpec> localOptions() {
            return List.of(
                OptionSpec.value(OptionSpec.NO_SHORT, "bind", (spelling, value) -> binds.add(address(value))),
                udpPortOption,
                OptionSpec.value(OptionSpec.NO_SHORT, "pcap", (spelling, value) -> pcap = Path.of(value)),
                OptionSpec.value(OptionSpec.NO_SHORT, "progress", (spelling, value) -> progress = progressMode(value)));
        }

        /**
         * {@code --udp-port} under an older name that a command keeps.
         *
         * @param longName the older long name
         * @return the option under that name
         */
        public OptionSpec udpPortAlias(String longName) {
            return udpPortOption.alias(longName);
        }

        /**
         * The device {@code -d} names (the first of the {@link DeviceRegistry} without {@code -d}),
         * with its addresses and UDP port unless {@code --bind} and {@code --udp-port} replace them;
         * the peer's port is the device's unless {@code --peer-udp-port} says otherwise.
         *
         * @return the device options
         * @throws UsageException the device file is wrong, or no device has the name
         */
        public DeviceOptions build() throws UsageException {
            return build(DeviceRegistry.load());
        }

        /**
         * {@link #build()} against a registry given.
         *
         * @param registry the devices that exist
         * @return the device options
         * @throws UnknownDeviceException no device has the name {@code -d} gave
         */
        public DeviceOptions build(DeviceRegistry registry) throws UnknownDeviceException {
            return of(name != null ? registry.get(name) : registry.first());
        }

        /**
         * A device of the registry with what the command line gave (addresses, port, capture, mode).
         *
         * @param device the device
         * @return the device options
         */
        public DeviceOptions of(DeviceDefinition device) {
            int port = udpPort != null ? udpPort : device.udpPort();
            return new DeviceOptions(device.name(), binds.isEmpty() ? device.addresses() : binds, port,
                peerUdpPort < 0 ? port : peerUdpPort, pcap, progress);
        }

        /**
         * Whether the command line is about one device: {@code -d}, {@code --bind}, {@code --udp-port},
         * or {@code --pcap} (one capture file is one device's).
         *
         * @return false when the registry's devices are all there is to go by
         */
        public boolean chosen() {
            return name != null || !binds.isEmpty() || udpPort != null || pcap != null;
        }

        private static ProgressMode progressMode(String value) throws UsageException {
            return switch (value) {
                case "eventLoop" -> ProgressMode.EVENT_LOOP;
                case "invoker" -> ProgressMode.INVOKER;
                default -> throw new UsageException("--progress takes eventLoop or invoker, got '" + value + "'");
            };
        }

        private static String address(String literal) throws UsageException {
            try {
                Gid.parse(literal);
                return literal;
            } catch (InvalidAttributeException e) {
                throw new UsageException("--bind needs an IP address literal, got '" + literal + "'");
            }
        }
    }
}
