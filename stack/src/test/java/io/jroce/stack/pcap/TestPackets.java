package io.jroce.stack.pcap;

import io.jroce.stack.wire.AethFlyweight;
import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.Opcode;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;

/** Well-formed RC packets (BTH onwards, no ICRC) that a dissector accepts, built with the wire flyweights. */
final class TestPackets {
    private TestPackets() {
    }

    /** RC SEND Only to {@code qpn} with {@code payload} random bytes, padded to a multiple of 4. */
    static byte[] sendOnly(Random rnd, int qpn, int psn, int payload) {
        int pad = -payload & 3;
        byte[] p = new byte[BthFlyweight.LENGTH + payload + pad];
        UnsafeBuffer b = new UnsafeBuffer(p);
        new BthFlyweight().wrap(b, 0).clear().opcode(Opcode.RC_SEND_ONLY).padCount(pad)
            .partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(qpn).ackRequest(true).psn(psn);
        for (int i = 0; i < payload; i++) {
            p[BthFlyweight.LENGTH + i] = (byte) rnd.nextInt();
        }
        return p;
    }

    /** RC Acknowledge of {@code psn} with credit field 0x1F, as rxe sends it. */
    static byte[] ack(int qpn, int psn, int msn) {
        byte[] p = new byte[BthFlyweight.LENGTH + AethFlyweight.LENGTH];
        UnsafeBuffer b = new UnsafeBuffer(p);
        new BthFlyweight().wrap(b, 0).clear().opcode(Opcode.RC_ACKNOWLEDGE)
            .partitionKey(BthFlyweight.DEFAULT_P_KEY).destQp(qpn).psn(psn);
        new AethFlyweight().wrap(b, BthFlyweight.LENGTH).syndrome(0x1F).msn(msn);
        return p;
    }
}
