package io.jroce.stack.wire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tshark fields committed as {@code captures/<name>.expected.tsv} (see the README beside
 * them), one row per RoCE packet keyed by frame number.
 */
final class ExpectedFields {
    private ExpectedFields() {
    }

    static Map<Integer, Row> read(InputStream in) throws IOException {
        Map<Integer, Row> rows = new LinkedHashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String[] header = r.readLine().split("\t", -1);
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] cells = line.split("\t", -1);
                if (cells.length != header.length) {
                    throw new IOException("row has " + cells.length + " cells, header " + header.length + ": " + line);
                }
                Map<String, String> m = new HashMap<>();
                for (int i = 0; i < header.length; i++) {
                    m.put(header[i], cells[i]);
                }
                Row row = new Row(m);
                rows.put((int) row.dec("frame.number"), row);
            }
        }
        return rows;
    }

    /** One packet's fields, parsed the way tshark prints them. */
    record Row(Map<String, String> cells) {
        String text(String column) {
            String v = cells.get(column);
            if (v == null) {
                throw new IllegalArgumentException("no column " + column);
            }
            return v;
        }

        boolean isEmpty(String column) {
            return text(column).isEmpty();
        }

        /** A decimal field, unsigned up to 64 bits. */
        long dec(String column) {
            return Long.parseUnsignedLong(text(column));
        }

        /** A hexadecimal field: "0x..." numbers, or bare hex for byte fields. */
        long hex(String column) {
            String v = text(column);
            return Long.parseUnsignedLong(v.startsWith("0x") ? v.substring(2) : v, 16);
        }

        boolean bool(String column) {
            return switch (text(column)) {
                case "1", "True" -> true;
                case "0", "False" -> false;
                default -> throw new IllegalArgumentException(column + " is not a boolean: " + text(column));
            };
        }
    }
}
