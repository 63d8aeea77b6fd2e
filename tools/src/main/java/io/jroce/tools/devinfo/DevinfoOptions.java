package io.jroce.tools.devinfo;

import io.jroce.tools.ArgCursor;
import io.jroce.tools.UsageException;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce devinfo} was asked for.
 *
 * @param name      device name
 * @param verbose   also the device attributes, the GID table and the counters
 * @param addresses IP address literals the device binds, one GID each
 * @param port      UDP port it binds
 * @param pcap      capture file while the device is open, or null
 */
record DevinfoOptions(String name, boolean verbose, List<String> addresses, int port, Path pcap) {
    static final String USAGE = """
        usage: jroce devinfo [-d NAME] [-v] [--bind ADDR ...] [--port N] [--pcap FILE]

        Opens a jroce device and prints its attributes as ibv_devinfo prints an RDMA device's.
        The device binds a UDP socket for each address while it is open: another jroce (or the
        kernel's rxe) on the same address and port makes this fail; pick another with --port.

        options:
          -d, --ib-dev NAME  name of the device (default jroce0)
          -v, --verbose      also print the device attributes, the GID table and the counters
          --bind ADDR        IP address of the device, repeatable: one GID each (default 127.0.0.1)
          --port N           UDP port (default 4791)
          --pcap FILE        capture what the device sends and receives while open (pcap)
        """;

    static DevinfoOptions parse(ArgCursor args) throws UsageException {
        String name = "jroce0";
        boolean verbose = false;
        List<String> addresses = new ArrayList<>();
        int port = AddressVector.ROCE_V2_PORT;
        Path pcap = null;
        while (args.hasNext()) {
            String option = args.next();
            switch (option) {
                case "-d", "--ib-dev" -> name = args.value(option);
                case "-v", "--verbose" -> verbose = true;
                case "--bind" -> addresses.add(address(args.value(option)));
                case "--port" -> port = args.intValue(option, 1, 65535);
                case "--pcap" -> pcap = Path.of(args.value(option));
                default -> throw ArgCursor.unknown(option);
            }
        }
        args.finish();
        if (addresses.isEmpty()) {
            addresses.add("127.0.0.1");
        }
        return new DevinfoOptions(name, verbose, List.copyOf(addresses), port, pcap);
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
