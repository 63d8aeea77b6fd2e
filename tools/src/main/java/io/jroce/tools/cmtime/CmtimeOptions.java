package io.jroce.tools.cmtime;

import static io.jroce.tools.getopt.OptionSpec.value;

import io.jroce.tools.DeviceOptions;
import io.jroce.tools.cmcommon.JroceOptionException;
import io.jroce.tools.cmcommon.TwinDeviceOptions;
import io.jroce.tools.cmcommon.TwinGetopt;
import io.jroce.tools.UsageException;
import io.jroce.tools.getopt.Getopt;
import io.jroce.tools.getopt.OptionSpec;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code jroce cmtime} was asked for: cmtime v44's options ({@code getopt "s:b:c:p:r:t:"}) with
 * its defaults, and jroce's device options.
 *
 * @param server      -s: the server to connect to; null to be the server
 * @param bind        -b: the server's address to listen on, or the client's source to bind, or null
 * @param connections -c: how many connections the client times
 * @param port        -p: the RDMA CM port (a service name in cmtime; a number here)
 * @param retries     -r: address and route resolution retries, and the REQ's retry count
 * @param timeoutMs   -t: address and route resolution timeout
 * @param device      --bind, --udp-port, --pcap
 * @param bindGiven   whether --bind chose the device's addresses
 */
record CmtimeOptions(String server, String bind, int connections, int port, int retries, int timeoutMs,
                     DeviceOptions device, boolean bindGiven) {
    static final int DEFAULT_PORT = 7471;
    static final int DEFAULT_CONNECTIONS = 100;
    static final int DEFAULT_RETRIES = 2;
    static final int DEFAULT_TIMEOUT_MS = 2000;

    boolean isServer() {
        return server == null;
    }

    /** The outcome of a parse: options to run, or the status cmtime exits with (its usage printed). */
    record Parsed(CmtimeOptions options, int status) {
    }

    /** Parses as cmtime's main does; an unknown option or a missing value: getopt's complaint, the usage, exit 1. */
    static Parsed parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        String[] server = {null};
        String[] bind = {null};
        int[] connections = {DEFAULT_CONNECTIONS};
        int[] port = {DEFAULT_PORT};
        int[] retries = {DEFAULT_RETRIES};
        int[] timeout = {DEFAULT_TIMEOUT_MS};
        TwinDeviceOptions device = new TwinDeviceOptions();
        List<OptionSpec> table = new ArrayList<>(List.of(
            value('s', null, (o, v) -> server[0] = v),
            value('b', null, (o, v) -> bind[0] = v),
            value('c', null, (o, v) -> connections[0] = atoi(v)),
            value('p', null, (o, v) -> {
                try {
                    port[0] = Getopt.integer("-p", v, 0, 65535);
                } catch (UsageException e) {
                    throw new JroceOptionException("-p " + v + ": jroce takes a port number, not a service name");
                }
            }),
            value('r', null, (o, v) -> retries[0] = atoi(v)),
            value('t', null, (o, v) -> timeout[0] = atoi(v))));
        table.addAll(device.options());
        if (!TwinGetopt.parse("cmtime", CmtimeUsage.CMTIME, table, args, out, err)) {
            return new Parsed(null, 1);
        }
        if (connections[0] < 0) {
            throw new JroceOptionException("-c " + connections[0] + ": a negative connection count is not supported");
        }
        return new Parsed(new CmtimeOptions(server[0], bind[0], connections[0], port[0], retries[0], timeout[0],
            device.build(), device.bindGiven()), 0);
    }

    /** C's atoi: base-10 digits after blanks and a sign, up to the first other character; 0 for none. */
    static int atoi(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = i < s.length() && s.charAt(i) == '-';
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        long n = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && n < Integer.MAX_VALUE) {
            n = n * 10 + (s.charAt(i++) - '0');
        }
        return (int) (negative ? -n : n);
    }

    /** getaddrinfo's first answer for a name or literal, or null. */
    static java.net.InetAddress resolve(String host) {
        try {
            return host.isEmpty() ? null : java.net.InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }
}
