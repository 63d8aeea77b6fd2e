package io.jroce.rnic;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The warm-up's exchange on its private fabric (run() throws when a completion is missing). */
class DataPathWarmUpTest {
    @Test
    void theExchangeCompletesAndLeavesNoEventLogWhereTheDirectoryAsksForOne(@TempDir Path dir) throws Exception {
        String before = System.getProperty(Configuration.EVENT_LOG_DIR_PROP_NAME);
        System.setProperty(Configuration.EVENT_LOG_DIR_PROP_NAME, dir.toString());
        try {
            DataPathWarmUp.run();
        } finally {
            if (before == null) {
                System.clearProperty(Configuration.EVENT_LOG_DIR_PROP_NAME);
            } else {
                System.setProperty(Configuration.EVENT_LOG_DIR_PROP_NAME, before);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "the warm-up's devices write no event log");
        }
    }
}
