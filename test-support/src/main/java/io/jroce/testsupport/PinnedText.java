package io.jroce.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test's output pinned in a file of its module (an event log, a ladder): the test fails when
 * the output changes, and the system property named by the caller, set to true, rewrites the
 * file instead, for a change that was checked and meant.
 */
public final class PinnedText {
    private PinnedText() {
    }

    /**
     * Asserts that {@code actual} is the text pinned in {@code file}; with
     * {@code -D<writeProperty>=true} first writes it there.
     *
     * @param file the pinned file, relative to the module
     * @param actual what the test produced
     * @param writeProperty the system property that rewrites the file
     * @param what what the text is, for the failure's message ("the log", "explain's output")
     * @throws IOException the file cannot be read or written
     */
    public static void assertPinned(Path file, String actual, String writeProperty, String what) throws IOException {
        if (Boolean.getBoolean(writeProperty)) {
            Files.writeString(file, actual);
        }
        assertEquals(Files.readString(file), actual,
            what + " changed: check it, then -D" + writeProperty + "=true rewrites " + file);
    }
}
