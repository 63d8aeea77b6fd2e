package io.jroce.tools;

import io.jroce.verbs.AddressInUseException;
import io.jroce.verbs.TransportException;
import java.io.PrintStream;
import java.util.List;

/**
 * How a command words a device it could not open: the error once, as the transport gave it, then a
 * hint only where one helps. A port held by another socket gets the hint to choose another UDP port,
 * and, for a device on the default address, to run a second instance on another loopback address;
 * any other failure (an address that is not local, a capture file that cannot be written) gets none,
 * so that it is not mistaken for a port problem.
 */
public final class DeviceOpenFailure {
    private DeviceOpenFailure() {
    }

    /**
     * Prints {@code "jroce <command>: error: <the message>"} (it names the device, its addresses and
     * port, and what failed) and the hint.
     *
     * @param command the command's name, as in {@code jroce <command>}
     * @param e       why the device did not open
     * @param udpPort the UDP port the device asked for
     * @param binds   the device's addresses, to suggest {@code --bind 127.0.0.2} when it is on the
     *                default address alone; an empty list when the command has no {@code --bind}
     * @param err     where the lines go
     */
    public static void report(String command, TransportException e, int udpPort, List<String> binds, PrintStream err) {
        err.println("jroce " + command + ": error: " + e.getMessage());
        if (!(e instanceof AddressInUseException)) {
            return;
        }
        String hint = "jroce " + command + ": UDP port " + udpPort + " is taken: another jroce, or the kernel's rxe, may"
            + " hold it; choose another with --udp-port";
        if (binds.equals(List.of(DeviceOptions.DEFAULT_BIND))) {
            hint += ", or run this one on another address with --bind 127.0.0.2";
        }
        err.println(hint);
    }
}
