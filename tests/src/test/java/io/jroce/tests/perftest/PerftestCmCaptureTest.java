package io.jroce.tests.perftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.RoceFrame;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * perftest's out-of-band exchange with -R as real perftest 4.5-0.17 (Debian 12) sends it, read from
 * a capture on an rxe guest's tap: {@code ib_write_bw -R -s 8 -n 20} in the guest as server, {@code
 * jroce write_bw -R} on the host as client (the first step of PerftestCmRxeTest, kept in
 * {@code src/test/resources/perftest/rxe-cm-write_bw.pcap}). Each side's control QP carries the
 * same sequence of SENDs, and real perftest's key record is the big-endian struct (Debian builds
 * with HAVE_ENDIAN): its QPN, rkey and buffer address are the ones jroce's RDMA WRITEs then used.
 */
class PerftestCmCaptureTest {
    /** RC SEND Only. */
    private static final int SEND_ONLY = 0x04;
    /** RC RDMA WRITE First and Only: the two that carry a RETH. */
    private static final int WRITE_FIRST = 0x06;
    private static final int WRITE_ONLY = 0x0A;
    private static final int BTH = 12;
    /**
     * write_bw's messages on each side: versions, page size, cache line, MTU, the two zeroed
     * records around create_rdma_cm_connection, the key record, its print, the barrier, the
     * half-duplex handshake, the report (size, iters, BW peak, BW average, message rate), the close.
     */
    private static final List<Integer> SEQUENCE = List.of(16, 4, 4, 2, 56, 56, 56, 56, 56, 56, 8, 8, 8, 8, 8, 56);

    private static List<RoceFrame> frames;
    /** Per source address, the payloads of its control QP's SENDs, in order. */
    private static Map<Integer, List<byte[]>> sends;
    /** The first RDMA WRITE jroce sent: its destination is real perftest's side. */
    private static RoceFrame firstWrite;

    @BeforeAll
    static void read() throws Exception {
        URL url = PerftestCmCaptureTest.class.getResource("/perftest/rxe-cm-write_bw.pcap");
        assertNotNull(url, "no capture");
        frames = RoceFrame.read(Path.of(url.toURI()));
        sends = new LinkedHashMap<>();
        for (RoceFrame f : frames) {
            if (f.opcode() == SEND_ONLY) {
                sends.computeIfAbsent(f.srcIpv4(), k -> new ArrayList<>()).add(payload(f));
            } else if (firstWrite == null && (f.opcode() == WRITE_FIRST || f.opcode() == WRITE_ONLY)) {
                firstWrite = f;
            }
        }
        assertNotNull(firstWrite, "no RDMA WRITE in the capture");
    }

    @Test
    void bothSidesSendTheSameSequenceOfMessages() {
        assertEquals(2, sends.size(), "two sides on the control QP");
        for (List<byte[]> s : sends.values()) {
            assertEquals(SEQUENCE, s.stream().map(b -> b.length).toList());
        }
    }

    @Test
    void versionsSizesAndMtuAsTheTcpExchangeHasThem() {
        for (List<byte[]> s : sends.values()) {
            assertArrayEquals(Arrays.copyOf("6.06".getBytes(StandardCharsets.US_ASCII), 16), s.get(0));
            assertEquals(4096, ByteBuffer.wrap(s.get(1)).getInt(), "page size, big-endian");
            assertEquals(64, ByteBuffer.wrap(s.get(2)).getInt(), "cache line, big-endian");
        }
        // each side its own port's MTU enum as text: rxe's 1024 (3), jroce's 4096 (5); the smaller wins
        assertArrayEquals(new byte[] {'3', 0}, sends.get(firstWrite.dstIpv4()).get(3), "perftest's MTU");
        assertArrayEquals(new byte[] {'5', 0}, sends.get(firstWrite.srcIpv4()).get(3), "jroce's MTU");
    }

    @Test
    void perftestsKeyRecordIsTheBigEndianStruct() {
        List<byte[]> perftest = sends.get(firstWrite.dstIpv4());
        assertNotNull(perftest, "real perftest's SENDs");
        ByteBuffer key = ByteBuffer.wrap(perftest.get(6));
        ByteBuffer roce = ByteBuffer.wrap(firstWrite.roce());
        assertEquals(0, key.getInt(0), "lid");
        assertEquals(1, key.getInt(4), "out_reads (1 for WRITE)");
        assertEquals(firstWrite.destQp(), key.getInt(8), "qpn: the QP jroce wrote to");
        assertEquals(roce.getInt(BTH + 8), key.getInt(16), "rkey: the one in jroce's RETH");
        assertEquals(roce.getLong(BTH), key.getLong(24), "vaddr: where jroce wrote");
        byte[] gid = new byte[16];
        key.get(32, gid);
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        ByteBuffer.wrap(mapped).putInt(12, firstWrite.dstIpv4());
        assertArrayEquals(mapped, gid, "the IPv4-mapped GID of perftest's side");
        assertEquals(0, key.getInt(48), "srqn");
        assertEquals(1, key.getInt(52), "gid_index (-x 1)");
        assertArrayEquals(perftest.get(6), perftest.get(7), "the same record again (the print)");
        assertArrayEquals(perftest.get(6), perftest.get(8), "and as the barrier");
    }

    @Test
    void theTwinsRecordHasTheSameLayout() {
        List<byte[]> jroce = sends.get(firstWrite.srcIpv4());
        List<byte[]> perftest = sends.get(firstWrite.dstIpv4());
        ByteBuffer key = ByteBuffer.wrap(jroce.get(6));
        ByteBuffer theirs = ByteBuffer.wrap(perftest.get(6));
        assertEquals(theirs.getInt(0), key.getInt(0), "lid");
        assertEquals(theirs.getInt(4), key.getInt(4), "out_reads");
        assertTrue(key.getInt(8) > 0 && key.getInt(8) < 1 << 24, "a 24-bit QPN, big-endian");
        assertEquals(0, key.getInt(20), "the padding, zeros from the twin");
        assertEquals(0, key.getInt(52), "gid_index (-x 0)");
    }

    @Test
    void theRecordsAroundTheCmConnectionAreZeroed() {
        for (List<byte[]> s : sends.values()) {
            for (int i : List.of(4, 5)) {
                byte[] r = s.get(i).clone();
                Arrays.fill(r, 20, 24, (byte) 0); // perftest's padding is whatever its stack held
                assertArrayEquals(new byte[56], r, "message " + i);
            }
        }
    }

    /** The client's report (the server's own is whatever its stack held: it measured nothing). */
    @Test
    void theClientsReportIsItsSizeAndIterations() {
        List<byte[]> jroce = sends.get(firstWrite.srcIpv4());
        assertEquals(8, ByteBuffer.wrap(jroce.get(10)).getLong(), "size, big-endian");
        assertEquals(20, ByteBuffer.wrap(jroce.get(11)).getLong(), "iterations, big-endian");
    }

    private static byte[] payload(RoceFrame f) {
        byte[] roce = f.roce();
        int pad = (roce[1] >> 4) & 3;
        return Arrays.copyOfRange(roce, BTH, roce.length - pad);
    }
}
