package io.jroce.tools.perftest.report;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The result table of one perftest run, as {@link PerftestReportParser} read it.
 *
 * @param table        which table the output has
 * @param header       the table's header line, trimmed, or null
 * @param bwUnit       the unit of a BW table: {@code MB/sec} or, with --report_gbits, {@code Gb/sec}; else null
 * @param bwRows       the rows of a BW table, in printed order
 * @param latencyRows  the rows of a latency table, in printed order
 * @param unparsedRows lines after the header that start like a row but do not parse as one
 */
public record PerftestReport(Table table, String header, String bwUnit, List<BwRow> bwRows,
                             List<LatencyRow> latencyRows, List<String> unparsedRows) {
    /** Which result table a run printed. */
    public enum Table {
        /** No result table. */
        NONE,
        /** A bandwidth table (the *_bw tools). */
        BW,
        /** A latency table (the *_lat tools). */
        LAT
    }

    /**
     * Copies the lists.
     *
     * @param table which table the output has
     * @param header the header line, or null
     * @param bwUnit the unit of a BW table, or null
     * @param bwRows the rows of a BW table
     * @param latencyRows the rows of a latency table
     * @param unparsedRows lines that do not parse as rows
     */
    public PerftestReport {
        bwRows = List.copyOf(bwRows);
        latencyRows = List.copyOf(latencyRows);
        unparsedRows = List.copyOf(unparsedRows);
    }

    /**
     * The last BW row (the result of a run of one size), if any.
     *
     * @return the row, or empty
     */
    public Optional<BwRow> lastBwRow() {
        return bwRows.isEmpty() ? Optional.empty() : Optional.of(bwRows.get(bwRows.size() - 1));
    }

    /**
     * The last latency row, if any.
     *
     * @return the row, or empty
     */
    public Optional<LatencyRow> lastLatencyRow() {
        return latencyRows.isEmpty() ? Optional.empty() : Optional.of(latencyRows.get(latencyRows.size() - 1));
    }

    /**
     * #iterations of the last row of the table, if there is one.
     *
     * @return the iterations, or empty
     */
    public OptionalLong iterations() {
        return switch (table) {
            case BW -> lastBwRow().map(r -> OptionalLong.of(r.iterations())).orElse(OptionalLong.empty());
            case LAT -> lastLatencyRow().map(r -> OptionalLong.of(r.iterations())).orElse(OptionalLong.empty());
            case NONE -> OptionalLong.empty();
        };
    }
}
