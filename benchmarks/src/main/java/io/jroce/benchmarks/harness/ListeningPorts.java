package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether some socket listens on a TCP port, from /proc/net/tcp and tcp6: a connection to find
 * out would be the one connection a perftest server accepts.
 */
final class ListeningPorts {
    private static final String LISTEN = "0A";

    private ListeningPorts() {
    }

    static boolean isListening(int port) {
        return listens(Path.of("/proc/net/tcp"), port) || listens(Path.of("/proc/net/tcp6"), port);
    }

    static boolean listens(Path table, int port) {
        List<String> lines;
        try {
            lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return false;
        }
        return listens(lines, port);
    }

    /** {@code lines}: a /proc/net/tcp table, header first; "sl local_address rem_address st ...". */
    static boolean listens(List<String> lines, int port) {
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 4) {
                continue;
            }
            String local = f[1];
            int colon = local.lastIndexOf(':');
            if (colon > 0 && f[3].equals(LISTEN) && Integer.parseInt(local.substring(colon + 1), 16) == port) {
                return true;
            }
        }
        return false;
    }
}
