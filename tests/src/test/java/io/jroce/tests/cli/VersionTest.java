package io.jroce.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.jroce.tools.ExitStatus;
import io.jroce.tools.Main;

/** {@code jroce --version} from the tools jar names the version Maven built it as. */
class VersionTest {
    @Test
    void theJarKnowsItsVersion() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"--version"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String line = out.toString(StandardCharsets.UTF_8);
        assertEquals(ExitStatus.OK, status, line + err);
        assertTrue(line.matches("jroce \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(Java .+\\)\\R"), line);
    }
}
