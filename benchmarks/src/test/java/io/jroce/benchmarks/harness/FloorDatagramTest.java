package io.jroce.benchmarks.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The floor's datagram sizes, derived from the opcode table: those of the table. */
class FloorDatagramTest {
    @Test
    void sendAndWriteOf64BytesAre80And96ByteDatagrams() {
        assertEquals(12 + 64 + 4, FloorDatagram.sendLatency(64));
        assertEquals(80, FloorDatagram.sendLatency(64));
        assertEquals(96, FloorDatagram.writeLatency(64));
        FloorDatagram w = FloorDatagram.writeOnly(64);
        assertEquals(96, w.udpPayload());
        assertEquals(12 + 16 + 4, w.roceOverhead());
        assertEquals(64, w.goodput());
    }

    @Test
    void aFullPacketAtMtu4096Is4112BytesOf4096Payload() {
        FloorDatagram d = FloorDatagram.writeMiddle(4096);
        assertEquals(4112, d.udpPayload());
        assertEquals(12 + 4, d.roceOverhead());
        assertEquals(4096, d.goodput());
        assertEquals(4112, FloorDatagram.writeMiddle(4096).udpPayload());
        assertEquals(1024 + 16, FloorDatagram.writeMiddle(1024).udpPayload());
    }

    @Test
    void goodputScalesTheUdpPayloadRateByPayloadOverDatagram() {
        assertEquals(14.0 * 4096 / 4112, FloorDatagram.writeMiddle(4096).goodputGbps(14.0), 1e-12);
        assertEquals(1.5 * 64 / 96, FloorDatagram.writeOnly(64).goodputGbps(1.5), 1e-12);
    }

    @Test
    void readAndAtomicRoundTripsSendTheMeanOfRequestAndResponse() {
        // READ request 12 + 16 + 4 = 32, READ RESPONSE ONLY 12 + 4 + 64 + 4 = 84.
        assertEquals((32 + 84) / 2, FloorDatagram.readLatency(64));
        // FETCH_ADD 12 + 28 + 4 = 44, ATOMIC ACKNOWLEDGE 12 + 4 + 8 + 4 = 28.
        assertEquals((44 + 28) / 2, FloorDatagram.atomicLatency());
        assertEquals(12 + 28, WireLayout.ATOMIC_REQUEST_LENGTH);
        assertEquals(12 + 4 + 8, WireLayout.ATOMIC_ACK_LENGTH);
    }
}
