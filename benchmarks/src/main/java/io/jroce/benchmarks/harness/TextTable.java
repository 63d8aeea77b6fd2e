package io.jroce.benchmarks.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table printed two ways: as aligned text for the terminal and as markdown for a file. The first
 * {@code leftColumns} columns are names (left-aligned), the others figures (right-aligned).
 */
final class TextTable {
    private final String[] header;
    private final int leftColumns;
    private final List<String[]> rows = new ArrayList<>();

    TextTable(int leftColumns, String... header) {
        this.header = header.clone();
        this.leftColumns = leftColumns;
    }

    void add(String... row) {
        if (row.length != header.length) {
            throw new IllegalArgumentException("a row of " + row.length + " cells in a table of " + header.length);
        }
        rows.add(row.clone());
    }

    String text() {
        int[] width = new int[header.length];
        Arrays.fill(width, 1); // "%0s" is no format: a column empty in every row is one space wide
        List<String[]> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                String cell = i < leftColumns ? r[i] + " ".repeat(width[i] - r[i].length())
                    : String.format("%" + width[i] + "s", r[i]);
                sb.append(i == 0 ? "" : "  ").append(cell);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(i < leftColumns ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }
}
