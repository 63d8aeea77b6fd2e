package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.NakCode;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.QpState;

/**
 * The responder writes an incoming SEND into its receive buffers only while their lkeys are valid,
 * for every packet of the message (as rxe's copy_data looks the lkey up per packet), not only for
 * the first. Built alone, see {@link EngineRig}.
 */
class ResponderReceiveBufferTest {
    private static final int EPSN = 1000;
    private static final int MTU = EngineRig.MTU;

    @Test
    void aSendPacketAfterItsReceiveBufferIsDeregisteredWritesNothing() {
        EngineRig rig = new EngineRig(256).rts(0, 0, 7, 0);
        rig.t.responder.reset(EPSN);
        EngineRig.TestRegion mr = new EngineRig.TestRegion(rig.keys, rig.pd, 2 * MTU);
        rig.postRecv(7, mr, 2 * MTU);
        byte[] payload = new byte[MTU];
        Arrays.fill(payload, (byte) 0x5A);

        rig.request(Opcode.RC_SEND_FIRST, EPSN, payload, 0);
        assertEquals(0x5A, mr.view.getByte(0));
        rig.keys.release(mr.lkey()); // the receive buffer is deregistered while the message arrives
        rig.request(Opcode.RC_SEND_LAST, EPSN + 1, payload, 0);

        assertEquals(0, mr.view.getByte(MTU), "nothing is written into a deregistered buffer");
        assertEquals(List.of("7 LOC_PROT_ERR RECV 0"), rig.recvCq.take());
        byte[] nak = rig.transport.packets.get(1);
        RocePacket p = new RocePacket();
        assertEquals(ParseResult.OK, p.wrap(new UnsafeBuffer(nak), 0, nak.length));
        assertEquals(NakCode.REMOTE_OPERATIONAL_ERROR, p.aeth().nakCode());
        assertEquals(List.of("RC_ACKNOWLEDGE " + EPSN, "RC_ACKNOWLEDGE " + (EPSN + 1)), rig.transport.take());
        assertEquals(QpState.ERR, rig.qp.state);
    }
}
