package io.jroce.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each quoted example, after its marker line, is the Java block that follows, character for
 * character the source of the example project (examples/, built and run by {@code ./mvnw verify}).
 */
class QuotedExamplesTest {
    private static final Path ROOT = Path.of("..");

    @ParameterizedTest(name = "{0} quotes {1}")
    @CsvSource({
        "README.md, examples/verbs-write/src/main/java/com/example/hello/ReadmeExample.java, ReadmeExample.java",
        "docs/cm-guide.md, examples/cm-endpoint/src/main/java/com/example/endpoint/CmEndpointExample.java, "
            + "CmEndpointExample.java"})
    void theQuotationIsTheSource(String document, String source, String name) throws IOException {
        String marker = "<!-- " + name + ": kept identical by QuotedExamplesTest -->";
        String text = Files.readString(ROOT.resolve(document));
        int at = text.indexOf(marker);
        assertTrue(at >= 0, document + " lacks the line " + marker);
        int start = text.indexOf("```java\n", at) + "```java\n".length();
        int end = text.indexOf("```\n", start);
        assertEquals(Files.readString(ROOT.resolve(source)), text.substring(start, end),
            document + "'s example and " + source + " differ: change both");
    }
}
