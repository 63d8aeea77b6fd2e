package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Each extension header read from bytes rxe sent (where a capture has it) and written back identically. */
class ExtensionHeaderFlyweightsTest {
    private static final int OFFSET = 7;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

    private static UnsafeBuffer wire(String hex) {
        return new UnsafeBuffer(Hex.bytes(hex));
    }

    private String written(int length) {
        return Hex.of(buffer, OFFSET, length);
    }

    @Nested
    class Reth {
        /** rxe-rping.pcap frame 6, the READ request of rping's 64-byte buffer. */
        private static final String CAPTURED = "0000558bfecb8370 0000050a 00000040";

        private final RethFlyweight reth = new RethFlyweight();

        @Test
        void readsAndWritesTheCapturedHeader() {
            reth.wrap(wire(CAPTURED), 0);
            assertEquals(0x0000558bfecb8370L, reth.virtualAddress());
            assertEquals(0x50a, reth.rKey());
            assertEquals(64, reth.dmaLength());

            reth.wrap(buffer, OFFSET).virtualAddress(0x0000558bfecb8370L).rKey(0x50a).dmaLength(64);
            assertEquals(CAPTURED.replace(" ", ""), written(RethFlyweight.LENGTH));
        }

        @Test
        void fullWidthValuesRoundTrip() {
            reth.wrap(buffer, OFFSET).virtualAddress(0xFEDCBA9876543210L).rKey(0x80000001).dmaLength(0xFFFFFFFFL);

            assertEquals(0xFEDCBA9876543210L, reth.virtualAddress());
            assertEquals(0x80000001, reth.rKey());
            assertEquals(0xFFFFFFFFL, reth.dmaLength());
            assertEquals("fedcba987654321080000001ffffffff", written(RethFlyweight.LENGTH));
        }
    }

    @Nested
    class Deth {
        /** rxe-rping.pcap frame 1: a CM MAD to QP1, GSI Q_Key, from QP1. */
        private static final String CAPTURED_GSI = "80010000 00000001";
        /** rxe-ud_pingpong.pcap frame 1: Q_Key 0x11111111 from QP 0x11. */
        private static final String CAPTURED_UD = "11111111 00000011";

        private final DethFlyweight deth = new DethFlyweight();

        @Test
        void readsAndWritesTheCapturedHeaders() {
            deth.wrap(wire(CAPTURED_GSI), 0);
            assertEquals(DethFlyweight.GSI_Q_KEY, deth.qKey());
            assertEquals(1, deth.sourceQp());
            deth.wrap(wire(CAPTURED_UD), 0);
            assertEquals(0x11111111, deth.qKey());
            assertEquals(0x11, deth.sourceQp());

            deth.wrap(buffer, OFFSET).qKey(DethFlyweight.GSI_Q_KEY).sourceQp(1);
            assertEquals(CAPTURED_GSI.replace(" ", ""), written(DethFlyweight.LENGTH));
        }

        @Test
        void sourceQpIsMaskedAndTheReservedByteWrittenAsZero() {
            buffer.setMemory(OFFSET, DethFlyweight.LENGTH, (byte) 0xEE);

            deth.wrap(buffer, OFFSET).sourceQp(0xAB123456);

            assertEquals(0x123456, deth.sourceQp());
            assertEquals("00123456", Hex.of(buffer, OFFSET + DethFlyweight.SOURCE_QP_OFFSET, 4));
        }
    }

    @Nested
    class AtomicEth {
        /** rxe-atomic_bw.pcap frame 1: FETCH ADD of 1. */
        private static final String CAPTURED = "000055c67a2fd000 00000246 0000000000000001 0000000000000000";

        private final AtomicEthFlyweight atomic = new AtomicEthFlyweight();

        @Test
        void readsAndWritesTheCapturedHeader() {
            atomic.wrap(wire(CAPTURED), 0);
            assertEquals(0x000055c67a2fd000L, atomic.virtualAddress());
            assertEquals(0x246, atomic.rKey());
            assertEquals(1, atomic.swapAddData());
            assertEquals(0, atomic.compareData());

            atomic.wrap(buffer, OFFSET).virtualAddress(0x000055c67a2fd000L).rKey(0x246).swapAddData(1).compareData(0);
            assertEquals(CAPTURED.replace(" ", ""), written(AtomicEthFlyweight.LENGTH));
        }

        @Test
        void unalignedSixtyFourBitFieldsRoundTrip() {
            atomic.wrap(buffer, OFFSET).virtualAddress(-2).rKey(-3).swapAddData(0x0102030405060708L)
                .compareData(0x8877665544332211L);

            assertEquals(-2, atomic.virtualAddress());
            assertEquals(-3, atomic.rKey());
            assertEquals(0x0102030405060708L, atomic.swapAddData());
            assertEquals(0x8877665544332211L, atomic.compareData());
            assertEquals("fffffffffffffffe" + "fffffffd" + "0102030405060708" + "8877665544332211",
                written(AtomicEthFlyweight.LENGTH));
        }
    }

    @Nested
    class Aeth {
        /** rxe-rping.pcap frame 5: ACK, no credit count reported, MSN 1. */
        private static final String CAPTURED = "1f000001";

        private final AethFlyweight aeth = new AethFlyweight();

        @Test
        void readsAndWritesTheCapturedHeader() {
            aeth.wrap(wire(CAPTURED), 0);
            assertEquals(AethKind.ACK, aeth.kind());
            assertEquals(AethSyndrome.NO_CREDIT_COUNT, aeth.creditCount());
            assertEquals(1, aeth.msn());
            assertNull(aeth.nakCode());

            aeth.wrap(buffer, OFFSET).ack(1, AethSyndrome.NO_CREDIT_COUNT);
            assertEquals(CAPTURED, written(AethFlyweight.LENGTH));
        }

        @Test
        void syndromeAndMsnAreIndependent() {
            aeth.wrap(buffer, OFFSET).syndrome(0x7F).msn(0xAB123456);
            assertEquals(0x7F, aeth.syndrome());
            assertEquals(0x123456, aeth.msn());

            aeth.syndrome(0x20);
            assertEquals(0x123456, aeth.msn());
            assertEquals("20123456", written(AethFlyweight.LENGTH));
        }

        @Test
        void writesEachKindWithItsMsn() {
            aeth.wrap(buffer, OFFSET).rnrNak(0x000102, 14);
            assertEquals("2e000102", written(4));
            assertEquals(AethKind.RNR_NAK, aeth.kind());
            assertEquals(14, aeth.rnrTimer());

            aeth.nak(0xFFFFFF, NakCode.REMOTE_ACCESS_ERROR);
            assertEquals("62ffffff", written(4));
            assertEquals(AethKind.NAK, aeth.kind());
            assertEquals(NakCode.REMOTE_ACCESS_ERROR, aeth.nakCode());

            aeth.ack(0x1000000 + 7, 0);
            assertEquals("00000007", written(4));
            assertEquals(0, aeth.creditCount());
        }
    }

    @Nested
    class AtomicAckEth {
        /** rxe-atomic_cmp.pcap frame 21: the target's previous (uninitialised) contents. */
        private static final String CAPTURED = "60c5fab64704b5f7";

        private final AtomicAckEthFlyweight ack = new AtomicAckEthFlyweight();

        @Test
        void readsAndWritesTheCapturedHeader() {
            ack.wrap(wire(CAPTURED), 0);
            assertEquals(6973255258835564023L, ack.originalRemoteData());

            ack.wrap(buffer, OFFSET).originalRemoteData(0x60c5fab64704b5f7L);
            assertEquals(CAPTURED, written(AtomicAckEthFlyweight.LENGTH));
        }
    }

    /** No capture carries immediate data (captures/README.md): the bytes here are written by hand. */
    @Nested
    class ImmDt {
        private final ImmDtFlyweight immDt = new ImmDtFlyweight();

        @Test
        void theFirstByteOnTheWireIsTheMostSignificant() {
            immDt.wrap(wire("deadbeef"), 0);
            assertEquals(0xDEADBEEF, immDt.immediateData());

            immDt.wrap(buffer, OFFSET).immediateData(0x01020304);
            assertEquals("01020304", written(ImmDtFlyweight.LENGTH));
        }
    }

    /** No capture carries an invalidation either: hand-written bytes. */
    @Nested
    class Ieth {
        private final IethFlyweight ieth = new IethFlyweight();

        @Test
        void carriesTheRKeyBigEndian() {
            ieth.wrap(wire("0000050a"), 0);
            assertEquals(0x50a, ieth.rKey());

            ieth.wrap(buffer, OFFSET).rKey(0xCAFE0001);
            assertEquals("cafe0001", written(IethFlyweight.LENGTH));
        }
    }
}
