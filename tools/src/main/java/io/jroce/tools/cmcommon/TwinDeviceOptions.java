package io.jroce.tools.cmcommon;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.OptionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * jroce's device options ({@code --bind}, {@code --udp-port}, {@code --pcap}) in the getopt table of
 * a librdmacm example's twin, whose own options have no device: their errors are
 * {@link JroceOptionException}s, and whether {@code --bind} chose the device's addresses (else the
 * program's addresses do) is kept.
 */
public final class TwinDeviceOptions {
    private final DeviceOptions.Parser device = new DeviceOptions.Parser();
    /** Whether the peers' options (--peer-udp-port) are offered too. */
    private final boolean peerOptions;
    private boolean bindGiven;

    /** The device's local options. */
    public TwinDeviceOptions() {
        this(false);
    }

    /**
     * The device's local options, and with {@code peerOptions} the peers' too.
     *
     * @param peerOptions whether --peer-udp-port is offered
     */
    public TwinDeviceOptions(boolean peerOptions) {
        this.peerOptions = peerOptions;
    }

    /**
     * The options, for the end of the program's table.
     *
     * @return the options
     */
    public List<OptionSpec> options() {
        List<OptionSpec> table = new ArrayList<>();
        for (OptionSpec o : peerOptions ? device.options() : device.localOptions()) {
            table.add(new OptionSpec(o.longName(), o.shortName(), o.argument(), (spelling, v) -> {
                try {
                    bindGiven |= "bind".equals(o.longName());
                    o.handler().accept(spelling, v);
                } catch (UsageException e) {
                    throw new JroceOptionException(e.getMessage());
                }
            }, o.refusal()));
        }
        return table;
    }

    /**
     * The device's options as given: the first device of the registry (these programs have no
     * {@code -d}) with what {@code --bind} and {@code --udp-port} replace.
     *
     * @return the options
     * @throws JroceOptionException the device file is wrong
     */
    public DeviceOptions build() throws JroceOptionException {
        try {
            return device.build();
        } catch (UsageException e) {
            throw new JroceOptionException(e.getMessage());
        }
    }

    /**
     * Whether --bind was given.
     *
     * @return true when --bind chose the addresses
     */
    public boolean bindGiven() {
        return bindGiven;
    }
}
