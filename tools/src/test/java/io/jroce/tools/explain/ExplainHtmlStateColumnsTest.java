package io.jroce.tools.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state columns of {@code jroce explain --html} (docs/explain.md), read from the data the page
 * carries: for the pinned lost-middle logs, each end's QP with what changed at each packet's row
 * and after the last one, the whole state on the first row shown, nothing for an end without a
 * log, nothing for a capture.
 * ExplainHtmlBrowserTest checks that chromium draws the same cells.
 */
class ExplainHtmlStateColumnsTest {
    private static final Path LOST_MIDDLE = Path.of("../rnic-sim/src/test/resources/event-log/lost-middle.jsonseq");
    private static final Path RXE_CAPTURE = Path.of("../stack/src/test/resources/captures/rxe-rc_pingpong_v4.pcap");
    private static final String DATA_START = "<script id=\"data\" type=\"application/json\">";

    @TempDir
    Path dir;

    /** The page's data: the JSON between the data script's tags. */
    private JsonNode data(String... args) throws Exception {
        Path html = dir.resolve("page.html");
        String[] all = new String[args.length + 3];
        all[0] = "explain";
        all[1] = "--html";
        all[2] = html.toString();
        System.arraycopy(args, 0, all, 3, args.length);
        CommandRunner r = CommandRunner.run(all);
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        String page = Files.readString(html);
        int start = page.indexOf(DATA_START) + DATA_START.length();
        return new ObjectMapper().readTree(page.substring(start, page.indexOf("</script>", start)));
    }

    /** A column as "QP name (end)". */
    private static String name(JsonNode column) {
        return column.path("qp").asText() + " (end " + column.path("end").asInt() + ")";
    }

    /** A column's non-empty cells by frame, and its last row's (no packet) by the row's label. */
    private static Map<String, List<String>> cells(JsonNode connection, JsonNode column) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        JsonNode cells = column.path("cells");
        assertEquals(connection.path("packets").size(), cells.size(), "a cell per packet row");
        for (int i = 0; i < cells.size(); i++) {
            List<String> lines = new ArrayList<>();
            cells.get(i).forEach(l -> lines.add(l.asText()));
            if (!lines.isEmpty()) {
                out.put(connection.path("packets").get(i).path("frame").asText(), lines);
            }
        }
        List<String> after = new ArrayList<>();
        column.path("after").forEach(l -> after.add(l.asText()));
        if (!after.isEmpty()) {
            out.put(connection.path("endRow").asText(), after);
        }
        return out;
    }

    @Test
    void eachRowShowsWhatChangedInEachEndsQp() throws Exception {
        JsonNode connection = data(LOST_MIDDLE.toString()).path("connections").get(0);
        JsonNode columns = connection.path("columns");
        assertEquals(2, columns.size(), columns.toString());
        assertEquals("jroce0 QP 0x000011 (end 0)", name(columns.get(0)));
        assertEquals(Map.of(
            "1", List.of("RTS", "ACK timer 67.109 ms"),
            "5", List.of("next 259 / unacked 257", "ACK timer 67.109 ms", "retries left 6"),
            "after frame 7", List.of("next 259 / unacked 259")),
            cells(connection, columns.get(0)),
            "A: in RTS with its ACK timer armed at the first SEND; at the resent MIDDLE, NAKed back to 257, "
                + "the timer armed again and a retry spent; nothing at the rows where nothing changed; "
                + "after the last ACK arrived, nothing left unacknowledged");
        assertEquals("jroce1 QP 0x000011 (end 1)", name(columns.get(1)));
        assertEquals(Map.of(
            "1", List.of("RTS"),
            "4", List.of("expects 257 / MSN 0"),
            "7", List.of("expects 259 / MSN 1")),
            cells(connection, columns.get(1)),
            "B: waiting for 257 when it NAKs, past the message (MSN 1) when it ACKs");
    }

    @Test
    void theFirstRowShownHasTheWholeState() throws Exception {
        JsonNode connection = data("--packets", "5-7", LOST_MIDDLE.toString()).path("connections").get(0);
        JsonNode columns = connection.path("columns");
        assertEquals(Map.of("5", List.of("RTS", "next 259 / unacked 257", "ACK timer 67.109 ms", "retries left 6"),
            "after frame 7", List.of("next 259 / unacked 259")), cells(connection, columns.get(0)));
        assertEquals(Map.of("5", List.of("RTS", "expects 257 / MSN 0"), "7", List.of("expects 259 / MSN 1")),
            cells(connection, columns.get(1)));
    }

    /**
     * A window's last row holds only what changed before the next packet of the connection: A's
     * NAKed PSNs, timer and retry of the instant frame 5 was sent belong to frame 5's row, not shown.
     */
    @Test
    void aWindowsLastRowStopsAtTheNextPacket() throws Exception {
        JsonNode connection = data("--packets", "1-4", LOST_MIDDLE.toString()).path("connections").get(0);
        JsonNode columns = connection.path("columns");
        assertEquals(Map.of("1", List.of("RTS", "ACK timer 67.109 ms")), cells(connection, columns.get(0)));
        assertEquals(Map.of("1", List.of("RTS"), "4", List.of("expects 257 / MSN 0")), cells(connection, columns.get(1)));
    }

    @Test
    void anEndWithoutALogHasNoColumn() throws Exception {
        String both = Files.readString(LOST_MIDDLE);
        Path aOnly = Files.writeString(dir.resolve("a.jsonseq"), both.substring(0, both.indexOf("\u001e{\"format\"", 1)));
        JsonNode columns = data(aOnly.toString()).path("connections").get(0).path("columns");
        assertEquals(1, columns.size(), columns.toString());
        assertEquals("jroce0 QP 0x000011 (end 0)", name(columns.get(0)));
    }

    @Test
    void aCaptureHasNoStateColumns() throws Exception {
        JsonNode connections = data("--packets", "1-20", RXE_CAPTURE.toString()).path("connections");
        assertTrue(connections.size() > 0);
        connections.forEach(c -> assertEquals(0, c.path("columns").size(), "a capture holds no QP state"));
    }
}
