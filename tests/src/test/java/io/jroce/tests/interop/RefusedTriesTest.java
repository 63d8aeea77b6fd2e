package io.jroce.tests.interop;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RefusedTriesTest {
    private static final Pattern END = Pattern.compile("\\d+ iters in");

    @Test
    void aRefusedTryAfterACompletedRunIsRemovedWithItsMarker() {
        List<String> guest = List.of(
            "  local address: server", "  remote address: a", "20 iters in 0.01 seconds",
            "  local address: refused 1", "Couldn't connect to 192.168.160.1:18515",
            MARKER_LINE + "; try 2 of 120",
            "  local address: refused 2", "Couldn't connect to 192.168.160.1:18515",
            MARKER_LINE + "; try 3 of 120",
            "  local address: client", "  remote address: b", "20 iters in 0.02 seconds");
        assertEquals(List.of(
            "  local address: server", "  remote address: a", "20 iters in 0.01 seconds",
            "  local address: client", "  remote address: b", "20 iters in 0.02 seconds"),
            RefusedTries.removed(guest, END));
    }

    @Test
    void aRefusedFirstTryIsRemovedAndOutputWithoutMarkersIsKept() {
        List<String> refusedFirst = List.of("  local address: refused", MARKER_LINE, "  local address: ok");
        assertEquals(List.of("  local address: ok"), RefusedTries.removed(refusedFirst, END));
        List<String> plain = List.of("  local address: x", "20 iters in 1.00 seconds", "  local address: y");
        assertEquals(plain, RefusedTries.removed(plain, END));
    }

    private static final String MARKER_LINE = RefusedTries.MARKER;
}
