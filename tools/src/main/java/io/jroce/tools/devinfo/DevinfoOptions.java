package io.jroce.tools.devinfo;

import static io.jroce.tools.getopt.OptionSpec.flag;
import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
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
 * @param device  the device to open: -d, --bind, --udp-port (or --port), --pcap
 */
record DevinfoOptions(boolean verbose, boolean counters, DeviceOptions device) {
    static final String USAGE = """
        usage: jroce devinfo [-d NAME] [-v] [-c] [--bind ADDR ...] [--udp-port N] [--pcap FILE]

        Opens a jroce device and prints its attributes as ibv_devinfo prints an RDMA device's.
        The device binds a UDP socket for each address while it is open: another jroce (or the
        kernel's rxe) on the same address and port makes this fail; pick another with --udp-port.

        options:
          -d, --ib-dev NAME  name of the device (default jroce0)
          -v, --verbose      also print all the device's attributes and its GID table
          -c, --counters     also print the device's counters, after its port
          --bind ADDR        IP address of the device, repeatable: one GID each (default 127.0.0.1)
          --udp-port N       UDP port (default 4791); --port N is the same
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
        return new DevinfoOptions(verbose[0], counters[0], device.build());
    }
}
