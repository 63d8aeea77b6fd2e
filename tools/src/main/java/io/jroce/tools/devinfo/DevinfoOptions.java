package io.jroce.tools.devinfo;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.DeviceRegistry;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce devinfo} was asked for.
 *
 * @param verbose  also the device attributes and the GID table, as ibv_devinfo -v
 * @param counters also the device's counters, after the port (ibv_devinfo has no such section)
 * @param devices  the devices to open: the one -d, --bind, --udp-port (or --port) or --pcap chose, else
 *                 every device of the registry, as ibv_devinfo prints every device
 */
record DevinfoOptions(boolean verbose, boolean counters, List<DeviceOptions> devices) {
    static final String USAGE = """
        usage: jroce devinfo [-d NAME] [-v] [-c] [--bind ADDR ...] [--udp-port N] [--pcap FILE]

        Opens each jroce device (the devices file defines them, docs/configuration.md; jroce0 on
        127.0.0.1 without one), or the one -d names, and prints it as ibv_devinfo prints an RDMA device.
        The device binds a UDP socket for each address while it is open: another jroce (or the
        kernel's rxe) on the same address and port makes this fail; pick another with --udp-port.

        options:
          -d, --ib-dev NAME  only the device of this name (default: every device)
          -v, --verbose      also print all the device's attributes and its GID table
          -c, --counters     also print the device's counters, after its port
          --bind ADDR        IP address of the device, repeatable: one GID each (default: the device's)
          --udp-port N       UDP port (default: the device's, 4791 unless the file says); --port N too
          --pcap FILE        capture what the device sends and receives while open (pcap)
        """;

    static DevinfoOptions parse(List<String> args) throws UsageException {
        DeviceOptions.Parser device = new DeviceOptions.Parser();
        boolean[] verbose = {false};
        boolean[] counters = {false};
        List<OptionSpec> table = new ArrayList<>(List.of(
            value('d', "ib-dev", (o, v) -> device.name(v)),
            flag('v', "verbose", () -> verbose[0] = true),
            flag('c', "counters", () -> counters[0] = true)));
        table.addAll(device.localOptions());
        table.add(device.udpPortAlias("port"));
        new Getopt(table, (o, operand) -> {
            throw Getopt.unknown(operand);
        }).parse(args);
        if (device.chosen()) {
            return new DevinfoOptions(verbose[0], counters[0], List.of(device.build()));
        }
        return new DevinfoOptions(verbose[0], counters[0],
            DeviceRegistry.load().devices().stream().map(device::of).toList());
    }
}
