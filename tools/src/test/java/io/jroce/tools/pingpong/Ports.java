package io.jroce.tools.pingpong;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Free ports for a test run, and whether a TCP port is being listened on yet. */
final class Ports {
    private Ports() {
    }

    /** A TCP port nobody listened on when we asked. */
    static int freeTcpPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A UDP port on {@code address} that nobody had bound when we asked. */
    static int freeUdpPort(String address) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether some socket listens on TCP {@code port}, from the kernel's tables: asking by
     * connecting would use up the one connection ibv_rc_pingpong's server accepts.
     */
    static boolean listening(int port) {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals("0A")) { // 0A: TCP_LISTEN
                        return true;
                    }
                }
            } catch (IOException e) {
                // no such table (no IPv6): look in the other
            }
        }
        return false;
    }
}
