package io.jroce.tests.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A guest's output without the tries that the image's retry-refused gave up on. A client that
 * found jroce's server not listening yet may have printed lines before its "Couldn't connect"
 * (the pingpong tools print their local address lines first), and retry-refused then prints its
 * "not listening yet" line and runs the client again. A refused try began after the previous
 * such line, or after the last line of the run before it (a line the caller recognises).
 */
final class RefusedTries {
    /** What retry-refused prints before it runs a refused client again. */
    static final String MARKER = "retry-refused: the server is not listening yet";

    private RefusedTries() {
    }

    /** {@code output} without the refused tries and retry-refused's lines about them. */
    static List<String> removed(List<String> output, Pattern lastLineOfRun) {
        List<String> kept = new ArrayList<>();
        int tryStart = 0;
        for (String line : output) {
            if (line.startsWith(MARKER)) {
                kept.subList(tryStart, kept.size()).clear();
            } else {
                kept.add(line);
                if (lastLineOfRun.matcher(line).find()) {
                    tryStart = kept.size();
                }
            }
        }
        return kept;
    }
}
