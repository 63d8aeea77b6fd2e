package io.jroce.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArgCursorTest {
    @Test
    void readsOptionsWithSeparateAndInlineValues() throws UsageException {
        ArgCursor a = new ArgCursor(List.of("--mtu", "4096", "--port=4792", "-v"));
        assertEquals("--mtu", a.next());
        assertEquals(4096, a.intValue("--mtu", 256, 4096));
        assertEquals("--port", a.next());
        assertEquals("4792", a.value("--port"));
        assertEquals("-v", a.next());
        a.finish();
        assertFalse(a.hasNext());
    }

    @Test
    void rejectsMissingValuesOutOfRangeNumbersAndValuedFlags() throws UsageException {
        ArgCursor missing = new ArgCursor(List.of("--port"));
        missing.next();
        assertEquals("--port needs a value", assertThrows(UsageException.class, () -> missing.value("--port")).getMessage());

        ArgCursor range = new ArgCursor(List.of("--port", "70000"));
        range.next();
        assertEquals("--port needs a number from 1 to 65535, got '70000'",
            assertThrows(UsageException.class, () -> range.intValue("--port", 1, 65535)).getMessage());

        ArgCursor flag = new ArgCursor(List.of("--ipv6=yes", "--port", "1"));
        flag.next();
        assertEquals("--ipv6 takes no value", assertThrows(UsageException.class, flag::next).getMessage());
    }
}
