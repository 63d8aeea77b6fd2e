package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapWriterTest {
    private static final int SRC_V4 = 0x0A4D0003; // 10.77.0.3
    private static final int DST_V4 = 0x0A4D0002;
    private static final byte[] SRC_V6 = v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3);
    private static final byte[] DST_V6 = v6(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2);

    @TempDir
    Path dir;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private final Random rnd = new Random(4791);

    static byte[] v6(int... bytes) {
        byte[] a = new byte[bytes.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) bytes[i];
        }
        return a;
    }

    static List<PcapReader.Record> read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return PcapReader.read(in);
        }
    }

    private int icrcV4(byte[] roce, int ipId, int flags) {
        return icrc.computeIpv4(SRC_V4, DST_V4, ipId, flags, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length);
    }

    @Test
    void fileHeaderIsClassicPcapWithNanosecondTimestampsAndEthernetFrames() throws IOException {
        Path f = dir.resolve("empty.pcap");
        PcapWriter.create(f).close();
        ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(24, h.capacity());
        assertEquals(0xa1b23c4d, h.getInt(0));
        assertEquals(2, h.getShort(4));
        assertEquals(4, h.getShort(6));
        assertEquals(PcapReader.LINKTYPE_ETHERNET, h.getInt(20));
        assertTrue(read(f).isEmpty());
    }

    @Test
    void anIpv4FrameCarriesTheGivenIdAndFlagsSoItsIcrcVerifies() throws IOException {
        byte[] roce = TestPackets.sendOnly(rnd, 0x11, 0x123456, 61);
        int crc = icrcV4(roce, 0x6289, 0); // an rxe-like ID, DF clear
        Path f = dir.resolve("v4.pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv4(SRC_V4, DST_V4, 0x6289, 0, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length, crc);
            assertEquals(1, w.frames());
        }
        List<PcapReader.Record> records = read(f);
        assertEquals(1, records.size());
        assertEquals(14 + 20 + 8 + roce.length + 4, records.get(0).originalLength());
        Frame fr = Frame.parse(records.get(0));
        assertTrue(fr.ipv4());
        assertEquals(0x6289, fr.ipId());
        assertEquals(0, fr.flagsFragment());
        assertEquals(64, fr.ttl());
        assertEquals(49152, fr.srcPort());
        assertEquals(4791, fr.dstPort());
        assertEquals(8 + roce.length + 4, fr.udpLength());
        assertTrue(fr.ipv4HeaderChecksumValid(), "IPv4 header checksum");
        assertTrue(fr.udpChecksumValid(), "UDP checksum");
        assertArrayEquals(roce, fr.roce());
        assertEquals(crc, fr.icrc());
        assertEquals(fr.expectedIcrc(), fr.icrc());
    }

    @Test
    void anIpv6FrameHasNextHeaderUdpAndANonZeroUdpChecksum() throws IOException {
        byte[] roce = TestPackets.ack(0x12, 0xABCDEF, 7);
        int crc = icrc.computeIpv6(SRC_V6, DST_V6, 50000, 4791, new UnsafeBuffer(roce), 0, roce.length);
        Path f = dir.resolve("v6.pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv6(SRC_V6, DST_V6, 50000, 4791, new UnsafeBuffer(roce), 0, roce.length, crc);
        }
        Frame fr = Frame.parse(read(f).get(0));
        assertEquals(Frame.ETHERTYPE_IPV6, fr.etherType());
        assertEquals(0x60, fr.ipHeader()[0] & 0xFF);
        assertEquals(17, fr.ipHeader()[6], "next header UDP");
        assertArrayEquals(SRC_V6, fr.src16());
        assertArrayEquals(DST_V6, fr.dst16());
        assertTrue(fr.udpChecksum() != 0, "IPv6 forbids a zero UDP checksum");
        assertTrue(fr.udpChecksumValid());
        assertArrayEquals(roce, fr.roce());
        assertEquals(fr.expectedIcrc(), fr.icrc());
    }

    @Test
    void moreFramesThanTheBufferHoldsAreAllWrittenInOrder() throws IOException {
        Path f = dir.resolve("many.pcap");
        int count = 3 * PcapWriter.BUFFER_BYTES / 4096 + 7;
        try (PcapWriter w = PcapWriter.create(f)) {
            for (int psn = 0; psn < count; psn++) {
                byte[] roce = TestPackets.sendOnly(rnd, 0x11, psn, 4096);
                w.ipv4(SRC_V4, DST_V4, 0, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791, new UnsafeBuffer(roce), 0,
                    roce.length, icrcV4(roce, 0, IcrcCalculator.IPV4_FLAGS_DF));
            }
        }
        List<PcapReader.Record> records = read(f);
        assertEquals(count, records.size());
        long previous = 0;
        for (PcapReader.Record r : records) {
            Frame fr = Frame.parse(r);
            assertEquals(r.index() - 1, ByteBuffer.wrap(fr.roce()).getInt(8) & 0xFFFFFF, "PSN of frame " + r.index());
            assertEquals(fr.expectedIcrc(), fr.icrc(), "frame " + r.index());
            assertTrue(r.timestampNs() >= previous, "timestamps never go back");
            previous = r.timestampNs();
        }
    }

    @Test
    void flushMakesFramesReadableWhileTheFileIsOpen() throws IOException {
        Path f = dir.resolve("flushed.pcap");
        byte[] roce = TestPackets.ack(0x11, 1, 1);
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv4(SRC_V4, DST_V4, 0, IcrcCalculator.IPV4_FLAGS_DF, 1, 4791, new UnsafeBuffer(roce), 0, roce.length, 0);
            assertEquals(0, read(f).size(), "buffered until flushed");
            w.flush();
            assertEquals(1, read(f).size());
        }
    }

    @Test
    void framesAfterCloseAreDroppedAndCloseIsIdempotent() throws IOException {
        Path f = dir.resolve("closed.pcap");
        byte[] roce = TestPackets.ack(0x11, 1, 1);
        PcapWriter w = PcapWriter.create(f);
        w.close();
        w.ipv4(SRC_V4, DST_V4, 0, IcrcCalculator.IPV4_FLAGS_DF, 1, 4791, new UnsafeBuffer(roce), 0, roce.length, 0);
        w.flush();
        w.close();
        assertEquals(0, w.frames());
        assertEquals(24, Files.size(f));
    }

    @Test
    void aFileThatCannotBeWrittenFailsAtCreate() {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full on this machine");
        assertThrows(IOException.class, () -> PcapWriter.create(full));
    }
}
