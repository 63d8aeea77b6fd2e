package io.jroce.tests.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The API reference ({@code ./mvnw -B -o javadoc:aggregate@apidocs}, configured in the root
 * POM) leaves out exactly the packages docs/versioning.md calls internal, and the modules that are
 * no library: so a package that becomes internal, or API, is not forgotten there. Reads the two
 * files only; building the reference is the command's job, whose doclint warnings fail it.
 */
class ApiReferenceTest {
    private static final Path ROOT = Path.of(System.getProperty("jroce.rootDir", ".."));
    private static final Pattern NAME = Pattern.compile("`(io\\.jroce(?:\\.[A-Za-z0-9_]+)+)`");

    @Test
    void theInternalPackagesAreLeftOutAndTheApiIsIn() throws IOException {
        Set<String> excluded = new TreeSet<>(Arrays.asList(configuration("excludePackageNames").split(":")));
        Set<String> internal = new TreeSet<>();
        Set<String> api = new TreeSet<>();
        for (String row : Files.readAllLines(ROOT.resolve("docs/versioning.md"))) {
            if (!row.startsWith("| `io.jroce")) {
                continue;
            }
            String[] cells = row.split("\\|");
            boolean isInternal = cells[2].contains("**internal**");
            for (String name : names(cells[1])) {
                (isInternal ? internal : api).add(name);
            }
        }
        // A package with an entry point among its internals ("the rest of io.jroce.rnic.cm.api") is in.
        internal.removeAll(api);
        internal.removeIf(p -> p.startsWith("io.jroce.tools")); // its module is skipped, below
        assertFalse(internal.isEmpty(), "no internal packages read from docs/versioning.md");
        assertEquals(internal, excluded, "the API reference's excludePackageNames against docs/versioning.md");
        for (String p : api) {
            assertFalse(excluded.contains(p), p + " is API or an entry point, yet left out of the API reference");
        }
    }

    @Test
    void onlyTheLibraryModulesAreDocumented() throws IOException {
        Set<String> skipped = new TreeSet<>(Arrays.asList(configuration("skippedModules").split(",")));
        assertEquals(Set.of("jroce-tools", "jroce-test-support", "jroce-tests", "jroce-benchmarks", "jroce-examples"),
            skipped);
        assertTrue(configuration("sourcepath").contains("apidocs-sources/verbs"),
            "the verbs sources come from the copy without module-info.java");
    }

    /** The backticked package names of a cell; a class name counts as its package. */
    private static List<String> names(String cell) {
        List<String> names = new ArrayList<>();
        Matcher m = NAME.matcher(cell);
        while (m.find()) {
            String name = m.group(1);
            String last = name.substring(name.lastIndexOf('.') + 1);
            names.add(Character.isUpperCase(last.charAt(0)) ? name.substring(0, name.lastIndexOf('.')) : name);
        }
        return names;
    }

    /** The text of one element of the apidocs execution's configuration in the root POM. */
    private static String configuration(String element) throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        int execution = pom.indexOf("<id>apidocs</id>");
        assertTrue(execution >= 0, "no apidocs execution in the root POM");
        int start = pom.indexOf("<" + element + ">", execution);
        int end = pom.indexOf("</" + element + ">", start);
        assertTrue(start >= 0 && end > start, "no <" + element + "> in the apidocs execution");
        return pom.substring(start + element.length() + 2, end).replaceAll("\\$\\{[^}]+}", "").trim();
    }
}
