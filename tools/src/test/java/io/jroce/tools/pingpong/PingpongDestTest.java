package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.Gid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PingpongDestTest {
    private static final Gid V4 = Gid.parse("10.77.0.2");

    @Test
    void theMessageIsThe51CharacterTextAndItsNulIn52Bytes() {
        byte[] m = new PingpongDest(0, 0x11, 0x9d3c2a, V4).toMessage();
        assertEquals(52, m.length);
        assertEquals("0000:000011:9d3c2a:00000000000000000000ffff0a4d0002",
            new String(m, 0, 51, StandardCharsets.US_ASCII));
        assertEquals(0, m[51]);
    }

    @Test
    void aMessageOfTheRealToolParses() {
        byte[] m = Arrays.copyOf("0000:000012:4f1e2d:fe800000000000005054fffe12346f00"
            .getBytes(StandardCharsets.US_ASCII), 52);
        PingpongDest d = PingpongDest.parse(m);
        assertEquals(0, d.lid());
        assertEquals(0x12, d.qpn());
        assertEquals(0x4f1e2d, d.psn());
        assertEquals(Gid.fromWireHex("fe800000000000005054fffe12346f00"), d.gid());
        assertEquals("LID 0x0000, QPN 0x000012, PSN 0x4f1e2d, GID fe80::5054:fffe:1234:6f00", d.describe());
    }

    @Test
    void roundTrips() {
        PingpongDest d = new PingpongDest(0, 0xABCDEF, 0xFFFFFF, Gid.parse("2001:db8::7"));
        assertEquals(d, PingpongDest.parse(d.toMessage()));
    }

    @Test
    void onlyAGidWithAnInterfaceIdGetsAGlobalRoute() {
        assertTrue(new PingpongDest(0, 1, 1, V4).hasGlobalRoute());
        assertFalse(new PingpongDest(0, 1, 1, Gid.fromWireHex("0".repeat(32))).hasGlobalRoute(),
            "ibv_rc_pingpong without -g sends a zero GID");
        assertFalse(new PingpongDest(0, 1, 1, Gid.fromWireHex("fe800000000000000000000000000000")).hasGlobalRoute());
    }

    @Test
    void malformedMessagesAreRefused() {
        for (String bad : new String[] {"", "0000:000011:9d3c2a", "0000:zz0011:9d3c2a:00000000000000000000ffff0a4d0002",
            "0000:000011:9d3c2a:00000000000000000000ffff0a4d00"}) {
            byte[] m = Arrays.copyOf(bad.getBytes(StandardCharsets.US_ASCII), 52);
            assertThrows(IllegalArgumentException.class, () -> PingpongDest.parse(m), bad);
        }
    }
}
