package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PcapReader} on pcapng, {@link RoceFrame} on Linux cooked and raw IP link layers, and
 * {@link GsoSegments} on a UDP super-datagram: what tcpdump, tshark and dumpcap write besides
 * jroce's own classic pcap.
 */
class CaptureFormatsTest {
    private static final int SRC = 0x0A4D0003;
    private static final int DST = 0x0A4D0002;

    @TempDir
    Path dir;

    private final IcrcCalculator icrc = new IcrcCalculator();

    @Test
    void pcapngOfEitherByteOrderGivesTheFramesAndTheirTimes() throws IOException {
        byte[] frame = frameOf(TestPackets.ack(0x11, 5, 1), 0);
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            ByteBuffer b = ByteBuffer.allocate(1024).order(order);
            b.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1)
                .putInt(28);
            b.putInt(1).putInt(20).putShort((short) 1).putShort((short) 0).putInt(0).putInt(20); // microseconds
            b.putInt(0x0BAD).putInt(16).putInt(7).putInt(16); // a custom block: skipped
            int padded = (frame.length + 3) & ~3;
            b.putInt(6).putInt(32 + padded).putInt(0).putInt(0).putInt(1_500_000).putInt(frame.length)
                .putInt(frame.length).put(frame).put(new byte[padded - frame.length]).putInt(32 + padded);
            List<PcapReader.Record> records = PcapReader.read(new ByteArrayInputStream(Arrays.copyOf(b.array(), b.position())));
            assertEquals(1, records.size(), order.toString());
            assertArrayEquals(frame, records.get(0).data());
            assertEquals(1_500_000_000L, records.get(0).timestampNs(), "1.5 s in microseconds");
            assertEquals(PcapReader.LINKTYPE_ETHERNET, records.get(0).linkType());
        }
    }

    @Test
    void cutAndForeignFilesSayWhy() {
        assertEquals("empty file: not a pcap or pcapng capture", refused(new byte[0]));
        assertEquals("not a pcap or pcapng file: it starts with 50 4b 03 04 14 00 00 00",
            refused(new byte[] {0x50, 0x4b, 3, 4, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
        ByteBuffer b = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        b.putInt(6).putInt(64); // a packet block longer than what is left
        assertEquals("truncated pcapng block 2 at byte 28: length 64, 12 bytes left", refused(b.array()));
    }

    private static String refused(byte[] file) {
        return assertThrows(IOException.class, () -> PcapReader.read(new ByteArrayInputStream(file))).getMessage();
    }

    @Test
    void linuxCookedAndRawIpFramesParseAsTheirEthernetFrame() throws IOException {
        byte[] roce = TestPackets.sendOnly(new Random(3), 0x11, 7, 33);
        byte[] ethernet = frameOf(roce, 0x1234);
        RoceFrame expected = RoceFrame.parse(new PcapReader.Record(1, 0, ethernet.length, PcapReader.LINKTYPE_ETHERNET,
            ethernet));
        byte[] ip = Arrays.copyOfRange(ethernet, 14, ethernet.length);
        byte[] sll = ByteBuffer.allocate(16 + ip.length).putShort(14, (short) 0x0800).put(16, ip).array();
        byte[] sll2 = ByteBuffer.allocate(20 + ip.length).putShort(0, (short) 0x0800).put(20, ip).array();
        for (PcapReader.Record r : List.of(new PcapReader.Record(1, 0, sll.length, PcapReader.LINKTYPE_LINUX_SLL, sll),
            new PcapReader.Record(1, 0, sll2.length, PcapReader.LINKTYPE_LINUX_SLL2, sll2),
            new PcapReader.Record(1, 0, ip.length, PcapReader.LINKTYPE_RAW, ip))) {
            RoceFrame f = RoceFrame.parse(r);
            assertArrayEquals(expected.roce(), f.roce(), "link type " + r.linkType());
            assertEquals(expected.icrc(), f.icrc());
            assertEquals(0x1234, f.ipId());
            assertTrue(new IcrcCheck().verifies(f));
        }
    }

    @Test
    void aGsoSuperDatagramIsCutIntoPacketsWhoseIcrcsVerify() throws IOException {
        Random rnd = new Random(9);
        int ipId = 0x40;
        // Three SEND ONLYs of one size, then a shorter last one: what a GSO run may hold.
        byte[][] packets = {TestPackets.sendOnly(rnd, 0x11, 0xFFFFFE, 256), TestPackets.sendOnly(rnd, 0x11, 0xFFFFFF, 256),
            TestPackets.sendOnly(rnd, 0x11, 0, 256), TestPackets.sendOnly(rnd, 0x11, 1, 100)};
        ByteBuffer udp = ByteBuffer.allocate(4 * 300);
        int lastIcrc = 0;
        for (int k = 0; k < packets.length; k++) {
            lastIcrc = icrc.computeIpv4(SRC, DST, ipId + k, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791,
                new UnsafeBuffer(packets[k]), 0, packets[k].length);
            udp.put(packets[k]);
            if (k < packets.length - 1) {
                udp.putInt(Integer.reverseBytes(lastIcrc));
            }
        }
        byte[] whole = Arrays.copyOf(udp.array(), udp.position());
        byte[] frame = frame(whole, ipId, lastIcrc);
        RoceFrame f = RoceFrame.parse(new PcapReader.Record(4, 0, frame.length, PcapReader.LINKTYPE_ETHERNET, frame));
        List<RoceFrame> cut = GsoSegments.split(f, new IcrcCheck());
        assertEquals(4, cut.size());
        for (int k = 0; k < 4; k++) {
            assertArrayEquals(packets[k], cut.get(k).roce(), "segment " + k);
            assertEquals(ipId + k, cut.get(k).ipId());
            assertEquals(4, cut.get(k).index());
            assertTrue(new IcrcCheck().verifies(cut.get(k)), "segment " + k);
        }
        byte[] single = frameOf(packets[0], 0);
        RoceFrame one = RoceFrame.parse(new PcapReader.Record(1, 0, single.length, PcapReader.LINKTYPE_ETHERNET, single));
        assertEquals(List.of(one), GsoSegments.split(one, new IcrcCheck()), "a packet whose ICRC verifies stays whole");
    }

    private byte[] frameOf(byte[] roce, int ipId) throws IOException {
        return frame(roce, ipId, icrc.computeIpv4(SRC, DST, ipId, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791,
            new UnsafeBuffer(roce), 0, roce.length));
    }

    /** One Ethernet frame written by {@link PcapWriter}: {@code roce} then {@code crc} as its last four bytes. */
    private byte[] frame(byte[] roce, int ipId, int crc) throws IOException {
        Path f = dir.resolve("f" + System.nanoTime() + ".pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv4(SRC, DST, ipId, IcrcCalculator.IPV4_FLAGS_DF, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length, crc);
        }
        return PcapWriterTest.read(f).get(0).data();
    }
}
