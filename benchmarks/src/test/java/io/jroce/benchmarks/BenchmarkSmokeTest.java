package io.jroce.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Each benchmark method computes the right thing; the benchmarks themselves run only from
 * benchmarks.jar, never as tests.
 */
class BenchmarkSmokeTest {
    /**
     * A 64-byte RC SEND ONLY sent by Linux rxe, 10.77.0.3:49441 to 10.77.0.2:4791, IP ID 0x63f5 with
     * DF: frame 1 of stack's test capture rxe-send_lat.pcap, with the ICRC it carried on the wire.
     */
    private static final byte[] RXE_SEND = HexFormat.of().parseHex(
        "0400ffff0000001180774ac79f2b86f048859a593d0cffc4c4ce360ccc395fec81377de3bf775937e815df8740667889eb12e2"
            + "281fe1ece3b022ef7c5b4e68dc86e5c0455c197c442e5ccb6f");
    private static final int RXE_SEND_ICRC = 0x5ea45665;

    @Test
    void icrcBenchmarkComputesTheIcrcRxeSent() {
        for (boolean direct : new boolean[] {true, false}) {
            IcrcBenchmark b = new IcrcBenchmark();
            b.use(RXE_SEND, RXE_SEND.length, direct);
            assertEquals(RXE_SEND_ICRC, b.ipv4(0x0a4d0003, 0x0a4d0002, 0x63f5, IcrcCalculator.IPV4_FLAGS_DF, 49441, 4791),
                direct ? "direct" : "heap");
        }
    }

    @Test
    void icrcBenchmarkCountsItsBytes() {
        IcrcBenchmark b = new IcrcBenchmark();
        b.size = 1024;
        b.buffer = "direct";
        b.setUp();
        IcrcBenchmark.Bytes bytes = new IcrcBenchmark.Bytes();
        int first = b.ipv4(bytes);
        assertEquals(first, b.ipv4(bytes), "same packet, same ICRC");
        assertEquals(2048e-9, bytes.gigabytes, 1e-15);
    }

    @Test
    void encodeBuildsAWriteFirstThatParses() {
        HeaderEncodeBenchmark encode = new HeaderEncodeBenchmark();
        int length = encode.writeFirst();
        assertEquals(12 + 16 + HeaderEncodeBenchmark.PAYLOAD, length);
        RocePacket p = new RocePacket();
        assertEquals(ParseResult.OK, p.wrap(encode.buffer(), 0, length));
        assertEquals(Opcode.RC_RDMA_WRITE_FIRST, p.bth().opcode());
        assertEquals(0x11, p.bth().destQp());
        assertEquals(1, p.bth().psn());
        assertEquals(0x7f00_1234_5000L, p.reth().virtualAddress());
        assertEquals(0x1234, p.reth().rKey());
        assertEquals(65536, p.reth().dmaLength());
    }

    @Test
    void decodeReadsEveryField() {
        long expected = Opcode.RC_RDMA_WRITE_FIRST + 0x11 + 0x123456 + 1 + HeaderEncodeBenchmark.PAYLOAD
            + 0x7f00_1234_5000L + 0x1234 + 65536;
        assertEquals(expected, new HeaderDecodeBenchmark().writeFirst());
    }

    @Test
    void bothRingsHandOverWhatTheProducerFilledAndRefuseWhenFull() {
        CompletionRingBenchmark b = new CompletionRingBenchmark();
        CompletionRingBenchmark.Padded padded = new CompletionRingBenchmark.Padded();
        CompletionRingBenchmark.Unpadded unpadded = new CompletionRingBenchmark.Unpadded();
        CompletionRingBenchmark.Sequence ps = new CompletionRingBenchmark.Sequence();
        CompletionRingBenchmark.Sequence us = new CompletionRingBenchmark.Sequence();
        for (int i = 0; i < CompletionRingBenchmark.ENTRIES; i++) {
            assertTrue(b.paddedProducer1(padded, ps));
            assertTrue(b.unpaddedProducer1(unpadded, us));
        }
        assertFalse(b.paddedProducer1(padded, ps), "full");
        assertFalse(b.unpaddedProducer1(unpadded, us), "full");
        CompletionRingBenchmark.Entries e = new CompletionRingBenchmark.Entries();
        e.setUp();
        CompletionRingBenchmark.Taken pt = new CompletionRingBenchmark.Taken();
        CompletionRingBenchmark.Taken ut = new CompletionRingBenchmark.Taken();
        for (int batch = 0; batch < CompletionRingBenchmark.ENTRIES / CompletionRingBenchmark.BATCH; batch++) {
            assertEquals(CompletionRingBenchmark.BATCH, b.paddedPoller1(padded, e, pt));
            assertEquals(batch * CompletionRingBenchmark.BATCH, e.wcs[0].wrId());
            assertEquals(CompletionRingBenchmark.BATCH, b.unpaddedPoller1(unpadded, e, ut));
            assertEquals(batch * CompletionRingBenchmark.BATCH + CompletionRingBenchmark.BATCH - 1, e.wcs[15].wrId());
        }
        assertEquals(0, b.paddedPoller1(padded, e, pt));
        assertEquals(0, b.unpaddedPoller1(unpadded, e, ut));
        assertEquals(CompletionRingBenchmark.ENTRIES, pt.taken);
        assertEquals(CompletionRingBenchmark.ENTRIES, ut.taken);
    }
}
