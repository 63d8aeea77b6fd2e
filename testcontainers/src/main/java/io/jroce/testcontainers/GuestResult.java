package io.jroce.testcontainers;

import java.util.List;

/**
 * How a command in an rxe guest ended: its exit status, what it printed (its lines of the
 * console, without the markers) and the whole console so far, for failure messages.
 */
public record GuestResult(int exitStatus, List<String> output, String console) {
    /** {@return the command's output as one text} */
    public String outputText() {
        return String.join("\n", output);
    }
}
