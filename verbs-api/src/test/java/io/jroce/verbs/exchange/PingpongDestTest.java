package io.jroce.verbs.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.RemoteQp;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** rdma-core's pingpong message: its exact text, a real tool's message read, and what is refused. */
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
    void fieldsBeyondTheirWidthsAndNullsAreRefused() {
        assertThrows(InvalidAttributeException.class, () -> new PingpongDest(0x10000, 1, 1, V4));
        assertThrows(InvalidAttributeException.class, () -> new PingpongDest(0, 0x1000000, 1, V4));
        assertThrows(InvalidAttributeException.class, () -> new PingpongDest(0, 1, -1, V4));
        assertThrows(InvalidAttributeException.class, () -> new PingpongDest(0, 1, 1, null));
        assertThrows(InvalidAttributeException.class, () -> PingpongDest.of(null, 1, V4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PingpongDest.parse(null));
        assertEquals("message is null", e.getMessage());
    }

    @Test
    void aPeerMessageWithAQpnBeyond24BitsIsMalformed() {
        byte[] m = Arrays.copyOf("0000:1000000:000001:00000000000000000000ffff0a4d0002".getBytes(StandardCharsets.US_ASCII), 52);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PingpongDest.parse(m));
        assertTrue(e.getMessage().startsWith("malformed address message '0000:1000000:"), e.getMessage());
    }

    @Test
    void theRemoteQpIsTheQpnPsnAndGidOnPort4791OrTheOneGiven() {
        PingpongDest d = new PingpongDest(0, 0x12, 0x345, V4);
        assertEquals(new RemoteQp(0x12, 0x345, V4, 4791), d.toRemoteQp());
        assertEquals(new RemoteQp(0x12, 0x345, V4, 5000), d.toRemoteQp(5000));
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
