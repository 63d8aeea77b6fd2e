package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one list of {@code jroce.*} properties: its parsing, and docs/configuration.md telling the same. */
class ConfigurationTest {
    private static final String PROBE = "jroce.test.probe";

    @AfterEach
    void clear() {
        System.clearProperty(PROBE);
    }

    @Test
    void booleansTakeTrueOrFalseAndRefuseAnythingElse() {
        assertTrue(Configuration.bool(PROBE, true));
        System.setProperty(PROBE, "FALSE");
        assertFalse(Configuration.bool(PROBE, true));
        System.setProperty(PROBE, "true");
        assertTrue(Configuration.bool(PROBE, false));
        System.setProperty(PROBE, "yes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Configuration.bool(PROBE, true));
        assertTrue(e.getMessage().contains(PROBE) && e.getMessage().contains("'yes'"), e.getMessage());
    }

    @Test
    void integersMustBeNonNegative() {
        assertEquals(7, Configuration.nonNegativeInt(PROBE, 7));
        System.setProperty(PROBE, "0x10");
        assertEquals(16, Configuration.nonNegativeInt(PROBE, 7));
        System.setProperty(PROBE, "-1");
        assertThrows(IllegalArgumentException.class, () -> Configuration.nonNegativeInt(PROBE, 7));
        System.setProperty(PROBE, "many");
        assertThrows(IllegalArgumentException.class, () -> Configuration.nonNegativeInt(PROBE, 7));
    }

    @Test
    void byteCountsTakeASuffixAndMustBePositive() {
        assertEquals(4096, Configuration.bytes(PROBE, "4096"));
        assertEquals(64L << 10, Configuration.bytes(PROBE, "64k"));
        assertEquals(256L << 20, Configuration.bytes(PROBE, "256M"));
        assertEquals(2L << 30, Configuration.bytes(PROBE, "2g"));
        for (String bad : new String[] {"0", "-1m", "lots", "m", "1t", "9999999999g"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Configuration.bytes(PROBE, bad), bad);
            assertTrue(e.getMessage().contains(PROBE), e.getMessage());
        }
    }

    @Test
    void theMemoryBudgetDefaultsToHalfTheMaximumHeap() {
        System.clearProperty(Configuration.MEMORY_BUDGET_PROP_NAME);
        assertEquals(Runtime.getRuntime().maxMemory() / 2, Configuration.memoryBudget());
        System.setProperty(Configuration.MEMORY_BUDGET_PROP_NAME, "8m");
        try {
            assertEquals(8L << 20, Configuration.memoryBudget());
        } finally {
            System.clearProperty(Configuration.MEMORY_BUDGET_PROP_NAME);
        }
    }

    @Test
    void docsListEveryPropertyWithItsDefault() throws IOException {
        List<String> rows = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "configuration.md"))) {
            if (line.startsWith("| `jroce.")) {
                rows.add(line);
            }
        }
        List<String> expected = new ArrayList<>();
        for (Configuration.Property p : Configuration.ALL) {
            expected.add("| `" + p.name() + "` | " + p.defaultValue() + " | " + p.meaning() + " |");
        }
        // The first table only: the second one names properties again, per tool.
        assertEquals(expected, rows.subList(0, expected.size()));
    }
}
