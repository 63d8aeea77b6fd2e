package io.jroce.stack.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.Opcode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RoceFrame} and {@link IcrcCheck} on real rxe captures and on frames the writer made, whole and damaged. */
class RoceFrameTest {
    private static final int SRC_V4 = 0x0A4D0003;
    private static final int DST_V4 = 0x0A4D0002;

    @TempDir
    Path dir;

    private final IcrcCalculator icrc = new IcrcCalculator();

    @Test
    void everyFrameOfTheRxeCapturesIsRoceWithAnIcrcThatVerifies() throws Exception {
        int files = 0;
        int ipv6 = 0;
        for (Path capture : rxeCaptures()) {
            List<PcapReader.Record> records;
            try (InputStream in = Files.newInputStream(capture)) {
                records = PcapReader.read(in);
            }
            List<RoceFrame> frames = IcrcCheck.readVerified(capture);
            assertEquals(records.size(), frames.size(), capture.toString());
            for (RoceFrame f : frames) {
                assertEquals(4791, f.dstPort(), capture + " frame " + f.index());
                ipv6 += f.ipv6() ? 1 : 0;
            }
            files++;
        }
        assertTrue(files >= 10, "the rxe captures are on the test classpath: " + files);
        assertTrue(ipv6 > 0, "some of them are IPv6");
    }

    @Test
    void aWrittenIpv4FrameComesBackFieldByField() throws IOException {
        byte[] roce = TestPackets.sendOnly(new Random(1), 0x12345, 0xABCDEF, 33);
        int crc = icrcV4(roce, 0x6289, 0);
        Path f = write(roce, 0x6289, 0, crc);
        RoceFrame fr = IcrcCheck.readVerified(f).get(0);
        assertEquals(1, fr.index());
        assertFalse(fr.ipv6());
        assertEquals(SRC_V4, fr.srcIpv4());
        assertEquals(DST_V4, fr.dstIpv4());
        assertEquals(0x6289, fr.ipId());
        assertEquals(0, fr.flagsFragment());
        assertEquals(49152, fr.srcPort());
        assertEquals(4791, fr.dstPort());
        assertArrayEquals(roce, fr.roce());
        assertEquals(crc, fr.icrc());
        assertEquals(Opcode.RC_SEND_ONLY, fr.opcode());
        assertEquals(0x12345, fr.destQp());
        assertEquals(0xABCDEF, fr.psn());
        assertEquals(crc, new IcrcCheck().expected(fr));
    }

    @Test
    void anIcrcComputedWithAnotherIpIdDoesNotVerifyAndTheCheckNamesTheFrame() throws IOException {
        byte[] roce = TestPackets.ack(0x11, 5, 1);
        Path f = dir.resolve("two.pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv4(SRC_V4, DST_V4, 7, 0, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length, icrcV4(roce, 7, 0));
            w.ipv4(SRC_V4, DST_V4, 8, 0, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length, icrcV4(roce, 7, 0));
        }
        assertTrue(new IcrcCheck().verifies(RoceFrame.read(f).get(0)));
        assertFalse(new IcrcCheck().verifies(RoceFrame.read(f).get(1)));
        IOException e = assertThrows(IOException.class, () -> IcrcCheck.readVerified(f));
        assertTrue(e.getMessage().contains("frame 2: ICRC"), e.getMessage());
    }

    @Test
    void ethernetPaddingIsAcceptedButNoOtherTrailingBytes() throws IOException {
        byte[] ack = TestPackets.ack(0x11, 5, 1); // 14 + 20 + 8 + 16 + 4 = 62 bytes: no padding on Ethernet
        byte[] frame = onlyFrame(write(ack, 0, IcrcCalculator.IPV4_FLAGS_DF,
            icrcV4(ack, 0, IcrcCalculator.IPV4_FLAGS_DF)));
        assertThrows(IOException.class, () -> RoceFrame.parse(record(Arrays.copyOf(frame, frame.length + 2))),
            "two bytes after a 62-byte frame are not Ethernet padding");

        byte[] bth = Arrays.copyOf(ack, IcrcCalculator.BTH_LENGTH); // 58 bytes: padded to 60 on the wire
        byte[] small = onlyFrame(write(bth, 0, 0, icrcV4(bth, 0, 0)));
        RoceFrame padded = RoceFrame.parse(record(Arrays.copyOf(small, RoceFrame.MIN_ETHERNET_FRAME)));
        assertArrayEquals(bth, padded.roce());
        assertTrue(new IcrcCheck().verifies(padded));
    }

    @Test
    void framesThatAreNotRoceSayWhy() throws IOException {
        byte[] roce = TestPackets.ack(0x11, 5, 1);
        byte[] frame = onlyFrame(write(roce, 0, 0, icrcV4(roce, 0, 0)));
        assertRejected(Arrays.copyOf(frame, frame.length - 1), "truncated");
        byte[] arp = frame.clone();
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertRejected(arp, "ethertype 0x806");
        byte[] tcp = frame.clone();
        tcp[14 + 9] = 6;
        assertRejected(tcp, "IPv4 protocol 6");
        byte[] tiny = frame.clone();
        tiny[14 + 20 + 4] = 0;
        tiny[14 + 20 + 5] = 8 + 4; // a UDP length without room for a BTH
        assertRejected(tiny, "no room for a BTH");
    }

    private static void assertRejected(byte[] frame, String why) {
        IOException e = assertThrows(IOException.class, () -> RoceFrame.parse(record(frame)));
        assertTrue(e.getMessage().startsWith("frame 1: ") && e.getMessage().contains(why), e.getMessage());
    }

    private static PcapReader.Record record(byte[] frame) {
        return new PcapReader.Record(1, 0, frame.length, PcapReader.LINKTYPE_ETHERNET, frame);
    }

    private Path write(byte[] roce, int ipId, int flags, int crc) throws IOException {
        Path f = Files.createTempFile(dir, "frame", ".pcap");
        try (PcapWriter w = PcapWriter.create(f)) {
            w.ipv4(SRC_V4, DST_V4, ipId, flags, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length, crc);
        }
        return f;
    }

    private int icrcV4(byte[] roce, int ipId, int flags) {
        return icrc.computeIpv4(SRC_V4, DST_V4, ipId, flags, 49152, 4791, new UnsafeBuffer(roce), 0, roce.length);
    }

    /** The bytes of the one frame of {@code file}. */
    private static byte[] onlyFrame(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            List<PcapReader.Record> records = PcapReader.read(in);
            assertEquals(1, records.size());
            return records.get(0).data();
        }
    }

    private static List<Path> rxeCaptures() throws IOException, URISyntaxException {
        URL url = RoceFrameTest.class.getResource("/captures");
        assertTrue(url != null, "no /captures on the test classpath");
        try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
            return s.filter(f -> f.toString().endsWith(".pcap")).sorted().toList();
        }
    }
}
