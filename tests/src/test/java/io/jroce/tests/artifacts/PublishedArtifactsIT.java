package io.jroce.tests.artifacts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What a Java project that depends on jroce gets, checked on the files the build just made (the
 * modules' {@code target/} directories and their POMs), as Maven Central would check them before
 * accepting a release: each published jar with its {@code -sources.jar} and {@code -javadoc.jar},
 * its stable JPMS module name, and a POM (with what it inherits from jroce-parent) that has a name,
 * a description, a URL, a licence, developers and SCM. The published set is jroce-bom's: every
 * module that deploys is in it and every module in it deploys. Runs in the {@code verify} phase
 * (failsafe), after the reactor packaged the modules; {@code ./mvnw verify} builds them first.
 */
class PublishedArtifactsIT {
    /** The stable JPMS names, one per published jar (docs/using-jroce.md): changing one breaks users. */
    private static final Map<String, String> MODULE_NAMES = Map.of(
            "jroce-verbs", "io.jroce.verbs",
            "jroce-stack", "io.jroce.stack",
            "jroce-rnic", "io.jroce.rnic",
            "jroce-tools", "io.jroce.tools",
            "jroce-testcontainers", "io.jroce.testcontainers",
            "jroce-junit", "io.jroce.junit");
    /** SLF4J bindings: a library artifact must not force one on its users (tools: optional only). */
    private static final Set<String> LOGGING_BINDINGS = Set.of(
            "slf4j-simple", "slf4j-reload4j", "slf4j-log4j12", "slf4j-jdk14", "logback-classic", "log4j-slf4j2-impl");

    private static Path root;
    private static String version;
    private static Pom parent;
    /** artifactId to POM, every module of the reactor's root POM. */
    private static final Map<String, Pom> MODULES = new LinkedHashMap<>();
    private static final Set<String> BOM_ARTIFACTS = new TreeSet<>();

    @BeforeAll
    static void readReactor() throws Exception {
        root = Path.of(System.getProperty("jroce.rootDir", "..")).toRealPath();
        parent = Pom.read(root.resolve("pom.xml"));
        version = System.getProperty("jroce.version", parent.text("version"));
        for (Element module : parent.all("modules", "module")) {
            Pom pom = Pom.read(root.resolve(module.getTextContent().trim()).resolve("pom.xml"));
            MODULES.put(pom.text("artifactId"), pom);
        }
        Pom bom = MODULES.get("jroce-bom");
        if (bom == null) {
            throw new AssertionError("no module jroce-bom in " + root.resolve("pom.xml"));
        }
        for (Element dependency : bom.all("dependencyManagement", "dependencies", "dependency")) {
            BOM_ARTIFACTS.add(Pom.childText(dependency, "artifactId"));
        }
    }

    @Test
    void theBomListsExactlyTheJarsThatDeploy() {
        Set<String> deployedJars = new TreeSet<>();
        MODULES.forEach((artifactId, pom) -> {
            if (!pom.deploySkipped() && pom.packaging().equals("jar")) {
                deployedJars.add(artifactId);
            }
        });
        assertEquals(BOM_ARTIFACTS, deployedJars, "jroce-bom's dependencyManagement against the jar modules without maven.deploy.skip");
        assertEquals(new TreeSet<>(MODULE_NAMES.keySet()), BOM_ARTIFACTS, "published artifacts against the module names this test knows");
    }

    @Test
    void everyPublishedPomHasWhatCentralRequires() {
        List<String> problems = new ArrayList<>();
        checkPom("jroce-parent", parent, problems);
        MODULES.forEach((artifactId, pom) -> {
            if (!pom.deploySkipped()) {
                checkPom(artifactId, pom, problems);
            }
        });
        assertEquals(List.of(), problems);
    }

    @Test
    void everyPublishedJarHasSourcesJavadocAndAModuleName() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String artifactId : BOM_ARTIFACTS) {
            Path target = buildDir(MODULES.get(artifactId));
            String base = artifactId + "-" + version;
            Path jar = target.resolve(base + ".jar");
            Path sources = target.resolve(base + "-sources.jar");
            Path javadoc = target.resolve(base + "-javadoc.jar");
            if (!Files.isRegularFile(jar)) {
                problems.add(artifactId + ": no " + jar + " (run ./mvnw verify: this test checks what it packaged)");
                continue;
            }
            checkModuleName(artifactId, jar, problems);
            checkHasEntry(artifactId, sources, ".java", problems);
            checkHasEntry(artifactId, javadoc, "index.html", problems);
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void libraryArtifactsCarryNoLoggingBinding() {
        List<String> problems = new ArrayList<>();
        for (String artifactId : BOM_ARTIFACTS) {
            for (Element dependency : MODULES.get(artifactId).all("dependencies", "dependency")) {
                String scope = Pom.childText(dependency, "scope").isEmpty() ? "compile" : Pom.childText(dependency, "scope");
                boolean reachesUsers = !"test".equals(scope) && !"provided".equals(scope)
                        && !"true".equals(Pom.childText(dependency, "optional"));
                String dependencyId = Pom.childText(dependency, "artifactId");
                if (reachesUsers && LOGGING_BINDINGS.contains(dependencyId)) {
                    problems.add(artifactId + ": depends on the logging binding " + dependencyId + " (scope " + scope + ")");
                }
                if (reachesUsers && dependencyId.startsWith("jroce-") && !BOM_ARTIFACTS.contains(dependencyId)) {
                    problems.add(artifactId + ": depends on the unpublished " + dependencyId + " (scope " + scope + ")");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theRepositoryHoldsTheLicenceThePomsName() throws IOException {
        Path license = root.resolve("LICENSE");
        assertTrue(Files.isRegularFile(license), "no LICENSE in " + root);
        String text = Files.readString(license);
        assertTrue(text.contains("Apache License") && text.contains("Version 2.0, January 2004"),
                license + " is not the Apache License 2.0 the POMs name");
    }

    /** The module's target directory, or the one directory of a build run with -Djroce.buildDir=DIR. */
    private static Path buildDir(Pom module) throws IOException {
        String tests = System.getProperty("jroce.testsBuildDir");
        if (tests != null && Files.isDirectory(Path.of(tests))
                && !Path.of(tests).toRealPath().equals(root.resolve("tests").resolve("target").toRealPath())) {
            return Path.of(tests);
        }
        return module.dir().resolve("target");
    }

    private static void checkPom(String artifactId, Pom pom, List<String> problems) {
        // A module's name and description are its own: the parent's would describe another artifact.
        for (String own : List.of("name", "description")) {
            if (pom.text(own).isBlank()) {
                problems.add(artifactId + ": no <" + own + "> in " + pom.file());
            }
        }
        // The rest may come from jroce-parent, as Maven's inheritance gives it to the published POM.
        Pom from = pom.parentRelative() ? parent : pom;
        if (pom.inherited("url", from).isBlank()) {
            problems.add(artifactId + ": no <url>");
        }
        Element license = pom.inheritedElement(from, "licenses", "license");
        if (license == null || !Pom.childText(license, "name").contains("Apache License")
                || Pom.childText(license, "url").isBlank()) {
            problems.add(artifactId + ": no <licenses> naming the Apache License with its URL");
        }
        Element developer = pom.inheritedElement(from, "developers", "developer");
        if (developer == null || Pom.childText(developer, "name").isBlank()) {
            problems.add(artifactId + ": no <developers> with a named developer");
        }
        Element scm = pom.inheritedElement(from, "scm");
        if (scm == null || Pom.childText(scm, "url").isBlank() || Pom.childText(scm, "connection").isBlank()) {
            problems.add(artifactId + ": no <scm> with url and connection");
        }
    }

    private static void checkModuleName(String artifactId, Path jar, List<String> problems) throws IOException {
        String expected = MODULE_NAMES.get(artifactId);
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String named = manifest == null ? null : manifest.getMainAttributes().getValue(new Attributes.Name("Automatic-Module-Name"));
            if (!expected.equals(named)) {
                problems.add(artifactId + ": Automatic-Module-Name " + named + " in " + jar + ", expected " + expected);
            }
        }
        // What the module system itself makes of the jar: an explicit module-info must agree.
        ModuleReference reference = ModuleFinder.of(jar).findAll().iterator().next();
        ModuleDescriptor descriptor = reference.descriptor();
        if (!descriptor.name().equals(expected)) {
            problems.add(artifactId + ": the module system names " + jar + " " + descriptor.name() + ", expected " + expected);
        }
        if (!descriptor.isAutomatic() && descriptor.exports().isEmpty()) {
            problems.add(artifactId + ": module-info exports nothing");
        }
    }

    private static void checkHasEntry(String artifactId, Path jar, String suffix, List<String> problems) throws IOException {
        if (!Files.isRegularFile(jar)) {
            problems.add(artifactId + ": no " + jar);
            return;
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.stream().noneMatch(e -> e.getName().endsWith(suffix))) {
                problems.add(artifactId + ": no *" + suffix + " in " + jar);
            }
        }
    }

    /** A POM file read as XML, with the few lookups the checks need. */
    private record Pom(Path file, Element project) {
        static Pom read(Path file) throws Exception {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            return new Pom(file, document.getDocumentElement());
        }

        Path dir() {
            return file.getParent();
        }

        String text(String child) {
            return childText(project, child);
        }

        String packaging() {
            String packaging = text("packaging");
            return packaging.isEmpty() ? "jar" : packaging;
        }

        boolean deploySkipped() {
            Element properties = child(project, "properties");
            return properties != null && "true".equals(childText(properties, "maven.deploy.skip"));
        }

        /** True when this POM's parent is the reactor's root POM (jroce-parent). */
        boolean parentRelative() {
            Element parentElement = child(project, "parent");
            return parentElement != null && "jroce-parent".equals(childText(parentElement, "artifactId"));
        }

        String inherited(String child, Pom from) {
            String own = text(child);
            return own.isBlank() ? from.text(child) : own;
        }

        Element inheritedElement(Pom from, String... path) {
            Element own = first(project, path);
            return own != null ? own : from.first(from.project, path);
        }

        List<Element> all(String... path) {
            List<Element> found = new ArrayList<>();
            Element container = first(project, Arrays.copyOf(path, path.length - 1));
            if (container != null) {
                for (Node n = container.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && e.getTagName().equals(path[path.length - 1])) {
                        found.add(e);
                    }
                }
            }
            return found;
        }

        private Element first(Element from, String... path) {
            Element at = from;
            for (String step : path) {
                at = at == null ? null : child(at, step);
            }
            return at;
        }

        static Element child(Element parent, String name) {
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(name)) {
                    return e;
                }
            }
            return null;
        }

        static String childText(Element parent, String name) {
            Element e = child(parent, name);
            return e == null ? "" : e.getTextContent().trim();
        }
    }
}
