package io.jroce.stack.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.wire.Opcode;

/** PacketMatch.cm selects CM MADs by attribute, and with occurrence(n) the n-th of them. */
class PacketMatchCmTest {
    private static final byte[] A = IpAddresses.toGidBytes("10.0.0.1");
    private static final byte[] B = IpAddresses.toGidBytes("10.0.0.2");

    /** BTH, DETH and a 256-byte MAD of {@code mgmtClass} and {@code attribute}, to QP {@code destQp}. */
    private static OutgoingPacket mad(int opcode, int destQp, int mgmtClass, int attribute) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[12 + 8 + 256]);
        b.putByte(0, (byte) opcode);
        b.putInt(4, destQp, ByteOrder.BIG_ENDIAN);
        b.putByte(20, (byte) 1);
        b.putByte(21, (byte) mgmtClass);
        b.putShort(20 + 16, (short) attribute, ByteOrder.BIG_ENDIAN);
        return new OutgoingPacket().wrap(0, A, B, b, 0, b.capacity());
    }

    @Test
    void selectsCmMessagesByAttribute() {
        PacketMatch req = PacketMatch.cm(MadHeaderFlyweight.ATTR_REQ);
        assertTrue(req.matches(mad(Opcode.UD_SEND_ONLY, 1, 0x07, 0x10)));
        assertFalse(req.matches(mad(Opcode.UD_SEND_ONLY, 1, 0x07, 0x13)), "a REP");
        assertFalse(req.matches(mad(Opcode.UD_SEND_ONLY, 1, 0x03, 0x10)), "another management class");
        assertFalse(req.matches(mad(Opcode.UD_SEND_ONLY, 0x22, 0x07, 0x10)), "to an application QP");
        assertFalse(req.matches(mad(Opcode.RC_SEND_ONLY, 1, 0x07, 0x10)), "not a UD SEND Only");
        UnsafeBuffer shortOne = new UnsafeBuffer(new byte[30]);
        shortOne.putByte(0, (byte) Opcode.UD_SEND_ONLY);
        assertEquals(-1, new OutgoingPacket().wrap(0, A, B, shortOne, 0, 30).madAttributeId(), "too short for a MAD");
    }

    @Test
    void withOccurrenceDropsOnlyTheNthOfThem() {
        FaultPolicy policy = new FaultPolicy(1);
        FaultRule secondRtu = policy.add(FaultRule.drop(PacketMatch.cm(MadHeaderFlyweight.ATTR_RTU)).occurrence(2));
        Verdict v = new Verdict();
        int[] attributes = {0x14, 0x13, 0x14, 0x14};
        Fate[] expected = {Fate.DELIVERED, Fate.DELIVERED, Fate.DROPPED, Fate.DELIVERED};
        for (int i = 0; i < attributes.length; i++) {
            policy.decide(mad(Opcode.UD_SEND_ONLY, 1, 0x07, attributes[i]), v);
            assertEquals(expected[i], v.fate, "packet " + i);
        }
        assertEquals(1, secondRtu.applied());
        assertEquals(3, secondRtu.seen());
    }
}
