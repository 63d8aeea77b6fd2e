package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What {@code jroce explain} printed, taken apart: ladder lines with their notes, findings, summary rows. */
final class Ladder {
    private static final Pattern LINE = Pattern.compile("^ *(\\d+(?:\\.\\d+)?) +\\d+\\.\\d{6}  (\\|.*\\|)$");
    private static final Pattern NOTE = Pattern.compile("^ {18}  \\* (.*)$");
    private static final Pattern SUMMARY = Pattern.compile(
        "^  ([AB]) .*? +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+) +\\S+ \\S+$");
    private static final Pattern OPCODE = Pattern.compile("^  0x([0-9a-f]{2}) (\\S+) +(\\d+)$");

    /** One packet's line. */
    record Entry(String frame, String arrow, List<String> notes) {
        boolean fromA() {
            return arrow.startsWith("|--");
        }

        boolean noted(String part) {
            return notes.stream().anyMatch(n -> n.contains(part));
        }
    }

    /** One row of a summary: what one side sent. */
    record Row(String side, int packets, long bytes, int messages, int retransmissions, int duplicates, int gaps,
               int acks, int naks, int rnrNaks) {
    }

    final String text;
    final Map<String, Entry> entries = new LinkedHashMap<>();
    final List<String> findings = new ArrayList<>();
    final List<Row> rows = new ArrayList<>();
    final Map<Integer, Integer> opcodes = new LinkedHashMap<>();

    Ladder(String text) {
        this.text = text;
        Entry last = null;
        boolean inFindings = false;
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            Matcher n = NOTE.matcher(line);
            Matcher s = SUMMARY.matcher(line);
            Matcher o = OPCODE.matcher(line);
            if (m.matches()) {
                last = new Entry(m.group(1), m.group(2), new ArrayList<>());
                entries.put(last.frame(), last);
            } else if (n.matches() && last != null) {
                last.notes().add(n.group(1));
            } else if (line.startsWith("findings")) {
                inFindings = true;
            } else if (inFindings && line.startsWith("  ")) {
                findings.add(line.trim());
            } else if (s.matches()) {
                rows.add(new Row(s.group(1), Integer.parseInt(s.group(2)), Long.parseLong(s.group(3)),
                    Integer.parseInt(s.group(4)), Integer.parseInt(s.group(5)), Integer.parseInt(s.group(6)),
                    Integer.parseInt(s.group(7)), Integer.parseInt(s.group(8)), Integer.parseInt(s.group(9)),
                    Integer.parseInt(s.group(10))));
            } else if (o.matches()) {
                opcodes.put(Integer.parseInt(o.group(1), 16), Integer.parseInt(o.group(3)));
            }
            if (line.isEmpty()) {
                inFindings = false;
            }
        }
    }

    Entry entry(String frame) {
        Entry e = entries.get(frame);
        if (e == null) {
            fail("no ladder line for frame " + frame + " in:\n" + text);
        }
        return e;
    }

    /** The only entry that matches, failing with the whole output otherwise. */
    Entry only(String what, Predicate<Entry> match) {
        List<Entry> found = entries.values().stream().filter(match).toList();
        assertEquals(1, found.size(), () -> "one ladder line with " + what + ", found " + found + " in:\n" + text);
        return found.get(0);
    }

    /** Every entry that matches; at least one. */
    List<Entry> all(String what, Predicate<Entry> match) {
        List<Entry> found = entries.values().stream().filter(match).toList();
        assertTrue(!found.isEmpty(), () -> "no ladder line with " + what + " in:\n" + text);
        return found;
    }

    /** A column of the summary, summed over both sides of every connection. */
    int total(java.util.function.ToIntFunction<Row> column) {
        return rows.stream().mapToInt(column).sum();
    }
}
