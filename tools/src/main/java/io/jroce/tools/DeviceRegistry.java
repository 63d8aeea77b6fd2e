package io.jroce.tools;

import io.jroce.rnic.Configuration;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The jroce devices that exist, by name: the one place every command's {@code -d} looks
 * (docs/configuration.md). A kernel lists its RDMA devices; a jroce device is defined in a file:
 * <ol>
 *   <li>the file the {@code jroce.devices} system property names, else</li>
 *   <li>the file the {@value #ENV} environment variable names, else</li>
 *   <li>{@code $XDG_CONFIG_HOME/jroce/devices} ({@code ~/.config/jroce/devices} without
 *       XDG_CONFIG_HOME), if it exists, else</li>
 *   <li>one device, {@code jroce0 127.0.0.1} on UDP port 4791.</li>
 * </ol>
 * One line per device: {@code NAME ADDRESS [ADDRESS ...] [udp-port=N]}; {@code #} starts a
 * comment. The addresses are the device's GIDs in index order.
 */
public final class DeviceRegistry {
    /** The environment variable that names the device file. */
    public static final String ENV = "JROCE_DEVICES";
    /** The system property that names the device file (before {@value #ENV}). */
    public static final String PROPERTY = Configuration.DEVICES_PROP_NAME;
    private static final String PORT_FIELD = "udp-port=";

    private final List<DeviceDefinition> devices;
    private final String source;

    private DeviceRegistry(List<DeviceDefinition> devices, String source) {
        this.devices = List.copyOf(devices);
        this.source = source;
    }

    /**
     * The devices of this process's configuration.
     *
     * @return the registry
     * @throws UsageException the device file cannot be read or has a wrong line
     */
    public static DeviceRegistry load() throws UsageException {
        return load(System.getProperty(PROPERTY), System.getenv(ENV), System.getenv("XDG_CONFIG_HOME"),
            System.getProperty("user.home"));
    }

    /**
     * The devices of a configuration given explicitly.
     *
     * @param property  the {@code jroce.devices} property, or null
     * @param env       the {@value #ENV} variable, or null
     * @param xdgConfig XDG_CONFIG_HOME, or null
     * @param home      the home directory
     * @return the registry
     * @throws UsageException the device file cannot be read or has a wrong line
     */
    static DeviceRegistry load(String property, String env, String xdgConfig, String home) throws UsageException {
        if (property != null && !property.isEmpty()) {
            return read(Path.of(property), "-D" + PROPERTY + "=" + property);
        }
        if (env != null && !env.isEmpty()) {
            return read(Path.of(env), ENV + "=" + env);
        }
        Path dir = xdgConfig != null && !xdgConfig.isEmpty() ? Path.of(xdgConfig) : Path.of(home, ".config");
        Path file = dir.resolve("jroce").resolve("devices");
        if (Files.isRegularFile(file)) {
            return read(file, file.toString());
        }
        return new DeviceRegistry(List.of(new DeviceDefinition(DeviceOptions.DEFAULT_NAME,
            List.of(DeviceOptions.DEFAULT_BIND), AddressVector.ROCE_V2_PORT)), "the default: no device file");
    }

    private static DeviceRegistry read(Path file, String source) throws UsageException {
        try {
            return parse(Files.readString(file), source);
        } catch (IOException e) {
            throw new UsageException("cannot read the device file " + file + " (" + source + "): " + e);
        }
    }

    /**
     * The devices a device file's text defines.
     *
     * @param text   the file's text
     * @param source where it comes from, for messages
     * @return the registry
     * @throws UsageException a line is wrong, a name comes twice, or no device is defined
     */
    static DeviceRegistry parse(String text, String source) throws UsageException {
        List<DeviceDefinition> devices = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String at = source + " line " + (i + 1) + ": ";
            String[] fields = line.split("\\s+");
            List<String> addresses = new ArrayList<>();
            int port = AddressVector.ROCE_V2_PORT;
            for (int f = 1; f < fields.length; f++) {
                if (fields[f].startsWith(PORT_FIELD)) {
                    port = port(fields[f].substring(PORT_FIELD.length()), at);
                } else {
                    addresses.add(address(fields[f], at));
                }
            }
            if (addresses.isEmpty()) {
                throw new UsageException(at + "device " + fields[0] + " needs an address: NAME ADDRESS [ADDRESS ...] [udp-port=N]");
            }
            String name = fields[0];
            if (devices.stream().anyMatch(d -> d.name().equals(name))) {
                throw new UsageException(at + "device " + name + " is defined twice");
            }
            devices.add(new DeviceDefinition(name, addresses, port));
        }
        if (devices.isEmpty()) {
            throw new UsageException(source + ": defines no device");
        }
        return new DeviceRegistry(devices, source);
    }

    private static int port(String value, String at) throws UsageException {
        try {
            int port = Integer.parseInt(value);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(at + PORT_FIELD + " takes 1..65535, got '" + value + "'");
    }

    private static String address(String literal, String at) throws UsageException {
        try {
            Gid.parse(literal);
            return literal;
        } catch (InvalidAttributeException e) {
            throw new UsageException(at + "not an IP address literal: '" + literal + "'");
        }
    }

    /**
     * Every device, in the file's order.
     *
     * @return the devices
     */
    public List<DeviceDefinition> devices() {
        return devices;
    }

    /**
     * The device a command opens when {@code -d} is not given: the first, as ibv_devinfo's "first
     * device found".
     *
     * @return the first device
     */
    public DeviceDefinition first() {
        return devices.get(0);
    }

    /**
     * The device of a name.
     *
     * @param name the name
     * @return the device, if defined
     */
    public Optional<DeviceDefinition> find(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /**
     * The device of a name, or the error ibv_devinfo gives with the devices that exist.
     *
     * @param name the name
     * @return the device
     * @throws UnknownDeviceException no device has the name
     */
    public DeviceDefinition get(String name) throws UnknownDeviceException {
        return find(name).orElseThrow(() -> new UnknownDeviceException(name, devices, source));
    }

    /**
     * Where the devices are defined.
     *
     * @return the file and what named it, or that the default is used
     */
    public String source() {
        return source;
    }
}
