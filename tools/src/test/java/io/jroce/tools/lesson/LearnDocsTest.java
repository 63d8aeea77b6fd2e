package io.jroce.tools.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/learn is what {@link LearnDocs} writes, file for file: a lesson, jroce's engines or explain
 * changed without the guide following fails here. With {@code -Djroce.learn.write=true} the test
 * writes the guide instead, and so also the text goldens of {@link LessonsTest}.
 */
class LearnDocsTest {
    static final Path LEARN = Path.of("../docs/learn");
    static final String REGENERATE = "./mvnw -B -q test -pl tools -am -Dtest='LearnDocsTest,LessonsTest' "
        + "-Dsurefire.failIfNoSpecifiedTests=false -Djroce.learn.write=true";

    static boolean writing() {
        return Boolean.getBoolean("jroce.learn.write");
    }

    @Test
    void docsLearnIsWhatTheLessonsPrint() throws IOException {
        Map<String, String> files = LearnDocs.files();
        if (writing()) {
            LearnDocs.write(LEARN);
        }
        Set<String> present;
        try (Stream<Path> s = Files.list(LEARN)) {
            present = s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(new TreeSet<>(files.keySet()), present,
            "docs/learn has other files than the lessons make; regenerate with: " + REGENERATE);
        for (Map.Entry<String, String> e : files.entrySet()) {
            assertEquals(e.getValue(), Files.readString(LEARN.resolve(e.getKey()), StandardCharsets.UTF_8),
                "docs/learn/" + e.getKey() + " is not what its lesson prints; regenerate with: " + REGENERATE);
        }
    }
}
