package io.jroce.verbs.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.RemoteQp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** perftest's key message and -R record, against perftest's format string and struct layout. */
class PerftestDestTest {
    private static final Gid GID = Gid.parse("192.168.1.2");

    @Test
    void theKeyMessageIs108BytesOfPerftestsFormat() {
        PerftestDest d = new PerftestDest(0, 16, 0x11, 0xabcdef, 0x204, 0x7f1d1c36b000L, GID, 0);
        byte[] m = d.toMessage();
        assertEquals(108, m.length);
        assertEquals(0, m[107]);
        assertEquals("0000:0010:000011:abcdef:00000204:00007f1d1c36b000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:02:"
            + "00000000:", new String(m, 0, 107, StandardCharsets.US_ASCII));
        assertEquals(d, PerftestDest.parse(m));
    }

    @Test
    void anRkeyAndAddressWithTheHighBitSetRoundTrip() {
        PerftestDest d = new PerftestDest(0, 1, 0xFFFFFF, 0, 0x80000001, 0xFFFF_8000_0000_0000L, GID, 7);
        byte[] m = d.toMessage();
        assertEquals("0000:0001:ffffff:000000:80000001:ffff800000000000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:02:"
            + "00000007:", new String(m, 0, 107, StandardCharsets.US_ASCII), "C's %x of a negative int is unsigned");
        assertEquals(d, PerftestDest.parse(m));
    }

    @Test
    void theRecordIsPerftestsStructBigEndianAndReadsBackWithoutItsSrqn() {
        PerftestDest d = new PerftestDest(0, 16, 0x11, 0xabcdef, 0x204, 0x7f1d1c36b000L, GID, 9);
        byte[] r = d.toRecord(3);
        assertEquals(56, r.length);
        ByteBuffer b = ByteBuffer.wrap(r);
        assertEquals(16, b.getInt(4));
        assertEquals(0x11, b.getInt(8));
        assertEquals(0x204, b.getInt(16));
        assertEquals(0x7f1d1c36b000L, b.getLong(24));
        assertEquals((byte) 0xc0, r[32 + 12]);
        assertEquals(9, b.getInt(48));
        assertEquals(3, b.getInt(52));
        assertEquals(new PerftestDest(0, 16, 0x11, 0xabcdef, 0x204, 0x7f1d1c36b000L, GID, 0), PerftestDest.fromRecord(r));
        assertEquals(new RemoteQp(0x11, 0xabcdef, GID), d.toRemoteQp());
    }

    @Test
    void malformedMessagesAndRecordsAreRefused() {
        for (String bad : new String[] {"", "0000:0010:000011", "0000:0010:zz0011:abcdef:00000204:00007f1d1c36b000:"
            + "00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:02:00000000:",
            "0000:0010:1000000:abcdef:00000204:00007f1d1c36b000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:02:00000000:",
            "0000:0010:000011:abcdef:00000204:00007f1d1c36b000:00:00:00:00:00:00:00:00:00:00:ff:ff:c0:a8:01:102:00000000:"}) {
            byte[] m = Arrays.copyOf(bad.getBytes(StandardCharsets.US_ASCII), 108);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PerftestDest.parse(m), bad);
            assertTrue(e.getMessage().startsWith("malformed key message"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> PerftestDest.parse(null));
        assertThrows(IllegalArgumentException.class, () -> PerftestDest.fromRecord(new byte[55]));
        assertThrows(IllegalArgumentException.class, () -> PerftestDest.fromRecord(null));
        byte[] wideQpn = new byte[56];
        ByteBuffer.wrap(wideQpn).putInt(8, 0x01000000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PerftestDest.fromRecord(wideQpn));
        assertTrue(e.getMessage().startsWith("malformed key record: QPN 0x1000000"), e.getMessage());
        assertThrows(InvalidAttributeException.class, () -> new PerftestDest(0, 0x10000, 1, 1, 0, 0, GID, 0));
        assertThrows(InvalidAttributeException.class, () -> new PerftestDest(0, 1, 1, 1, 0, 0, null, 0));
    }
}
