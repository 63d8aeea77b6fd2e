package io.jroce.tools;

import java.util.List;

/** {@code -d} named a device that no device file defines; the message lists those it defines. */
public final class UnknownDeviceException extends UsageException {
    private static final long serialVersionUID = 1L;
    /** The name {@code -d} was given. */
    private final String deviceName;

    /**
     * Creates the exception.
     *
     * @param deviceName the name asked for
     * @param known      the devices that exist
     * @param source     where they are defined
     */
    public UnknownDeviceException(String deviceName, List<DeviceDefinition> known, String source) {
        super("IB device '" + deviceName + "' wasn't found\nknown devices: "
            + String.join(", ", known.stream().map(DeviceDefinition::name).toList()) + " (" + source + ")");
        this.deviceName = deviceName;
    }

    /**
     * The name asked for.
     *
     * @return the name {@code -d} was given
     */
    public String deviceName() {
        return deviceName;
    }

    /**
     * The line that lists the known devices.
     *
     * @return "known devices: ..." with where they are defined
     */
    public String knownDevices() {
        return getMessage().substring(getMessage().indexOf('\n') + 1);
    }
}
