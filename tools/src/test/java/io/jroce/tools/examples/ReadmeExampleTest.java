package io.jroce.tools.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReadmeExampleTest {
    private static final Path SOURCE = Path.of("src/main/java/io/jroce/tools/examples/ReadmeExample.java");
    private static final Path README = Path.of("../README.md");
    private static final String MARKER = "<!-- ReadmeExample.java: kept identical by ReadmeExampleTest -->";

    @Test
    void readmeShowsTheExampleVerbatim() throws IOException {
        String readme = Files.readString(README);
        int marker = readme.indexOf(MARKER);
        assertTrue(marker >= 0, "README.md lacks the line " + MARKER);
        int start = readme.indexOf("```java\n", marker) + "```java\n".length();
        int end = readme.indexOf("```\n", start);
        assertEquals(Files.readString(SOURCE), readme.substring(start, end),
            "README.md's example and ReadmeExample.java differ: change both");
    }

    @Test
    void exampleRuns() throws InterruptedException {
        ReadmeExample.main(new String[0]);
    }
}
