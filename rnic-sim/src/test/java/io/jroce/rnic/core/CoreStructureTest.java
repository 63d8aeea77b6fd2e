package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

import org.junit.jupiter.api.Test;

/**
 * Keeps the core's structure: runs {@code jdeps -verbose:class} on the compiled classes, folds
 * nested classes into their outer class, and checks the strongly connected components (Tarjan) of
 * the class graph: none larger than 8, and none that holds an engine class together with the
 * device, a PD or a CQ (the engines reach resources only through narrow interfaces).
 */
class CoreStructureTest {
    private static final String PACKAGE = "io.jroce.rnic.core.";
    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)");
    private static final Set<String> ENGINES = Set.of("Requester", "Responder", "Completer", "TransmitBudget",
        "PacketSender", "RnicEngine");
    private static final Set<String> RESOURCES = Set.of("SoftDevice", "SoftPd", "SoftCq");

    @Test
    void noLargeCycleAndNoEngineInACycleWithTheResources() {
        List<Set<String>> cycles = cycles(classGraph());
        for (Set<String> cycle : cycles) {
            assertTrue(cycle.size() <= 8, "class cycle larger than 8: " + cycle);
            boolean engine = cycle.stream().anyMatch(ENGINES::contains);
            boolean resource = cycle.stream().anyMatch(RESOURCES::contains);
            assertFalse(engine && resource, "an engine class is in a cycle with a resource: " + cycle);
        }
    }

    @Test
    void findsACycleItIsShown() {
        Map<String, Set<String>> g = new TreeMap<>();
        g.put("A", new TreeSet<>(Set.of("B")));
        g.put("B", new TreeSet<>(Set.of("C")));
        g.put("C", new TreeSet<>(Set.of("A", "D")));
        g.put("D", new TreeSet<>());
        assertEquals(List.of(Set.of("A", "B", "C")), cycles(g));
    }

    /** The core's classes (simple names, nested classes folded in) and the core classes each uses. */
    private static Map<String, Set<String>> classGraph() {
        Path classes = Paths.get("target", "classes");
        assertTrue(Files.isDirectory(classes.resolve("io/jroce/rnic/core")), "compiled classes under " + classes);
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
            classes.toString());
        assertEquals(0, rc, err.toString());
        Map<String, Set<String>> g = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (!m.find() || !m.group(1).startsWith(PACKAGE) || !m.group(2).startsWith(PACKAGE)) {
                continue;
            }
            String from = simpleOuter(m.group(1));
            String to = simpleOuter(m.group(2));
            g.computeIfAbsent(from, k -> new TreeSet<>());
            g.computeIfAbsent(to, k -> new TreeSet<>());
            if (!from.equals(to)) {
                g.get(from).add(to);
            }
        }
        assertTrue(g.containsKey("Requester") && g.containsKey("SoftDevice"), "jdeps saw the core: " + g.keySet());
        return g;
    }

    private static String simpleOuter(String className) {
        String simple = className.substring(PACKAGE.length());
        int dollar = simple.indexOf('$');
        return dollar < 0 ? simple : simple.substring(0, dollar);
    }

    /** Strongly connected components of more than one class (Tarjan). */
    static List<Set<String>> cycles(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : g.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, g, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> g, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, g, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }
}
