package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.verbs.Gid;
import io.jroce.verbs.exchange.PingpongDest;
import org.junit.jupiter.api.Test;

/** The address lines the pingpong tools print, and srq_pingpong's unused entries. */
class PingpongToolTest {
    @Test
    void addressLinesAsTheToolsPrintThem() {
        PingpongDest d = new PingpongDest(0, 0x12, 0x4f1e2d, Gid.fromWireHex("fe800000000000005054fffe12346f00"));
        assertEquals("  remote address: LID 0x0000, QPN 0x000012, PSN 0x4f1e2d, GID fe80::5054:fffe:1234:6f00",
            PingpongTool.remoteLine(d));
        assertEquals("  local address:  LID 0x0000, QPN 0x000012, PSN 0x4f1e2d: GID fe80::5054:fffe:1234:6f00",
            PingpongTool.UD.localLine(d));
        assertEquals("  local address:  LID 0x0000, QPN 0x000012, PSN 0x4f1e2d, GID fe80::5054:fffe:1234:6f00",
            PingpongTool.RC.localLine(d));
    }

    @Test
    void anUnusedEntryIsAllZerosOnTheWire() {
        assertEquals("0000:000000:000000:" + "0".repeat(32),
            new String(PingpongTool.unusedDest().toMessage(), 0, 51, java.nio.charset.StandardCharsets.US_ASCII));
    }
}
