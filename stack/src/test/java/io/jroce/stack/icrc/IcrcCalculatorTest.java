package io.jroce.stack.icrc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IcrcCalculatorTest {
    private static List<CapturedRocePacket> packets;
    private final IcrcCalculator calc = new IcrcCalculator();

    @BeforeAll
    static void load() {
        packets = CapturedRocePacket.all();
    }

    private int compute(CapturedRocePacket p, DirectBuffer roce, int off) {
        return p.ipv6()
            ? calc.computeIpv6(p.src16(), p.dst16(), p.srcPort(), p.dstPort(), roce, off, p.roce().length)
            : calc.computeIpv4(p.srcIpv4(), p.dstIpv4(), p.ipId(), p.flagsFragment(), p.srcPort(), p.dstPort(),
                roce, off, p.roce().length);
    }

    private int compute(CapturedRocePacket p) {
        return compute(p, new UnsafeBuffer(p.roce()), 0);
    }

    @Test
    void everyCapturedPacketVerifies() {
        int v4 = 0;
        int v6 = 0;
        for (CapturedRocePacket p : packets) {
            assertEquals(p.icrc(), compute(p), p.where());
            assertEquals(p.icrc(), p.maskedCrcOfFrameBytes(), p.where() + " (oracle over the frame bytes)");
            if (p.ipv6()) {
                v6++;
            } else {
                v4++;
            }
        }
        assertTrue(v4 > 1000 && v6 > 100, "IPv4 " + v4 + ", IPv6 " + v6);
        assertEquals(13, CapturedRocePacket.captureFiles().size());
        assertEquals(1992, v4 + v6, "the captures' README counts 1,992 packets");
    }

    @Test
    void anyFlippedBitOfPacketOrIcrcFails() {
        Random rnd = new Random(4791);
        int trials = 0;
        for (CapturedRocePacket p : packets) {
            byte[] roce = p.roce().clone();
            int bits = roce.length * 8;
            int samples = bits <= 1024 ? bits : 128;
            for (int s = 0; s < samples; s++) {
                int bit = bits <= 1024 ? s : rnd.nextInt(bits);
                if (bit / 8 == 4) {
                    continue; // the masked BTH byte, tested below
                }
                roce[bit / 8] ^= (byte) (1 << (bit % 8));
                CapturedRocePacket flipped = withRoce(p, roce);
                assertNotEquals(p.icrc(), compute(flipped), p.where() + " bit " + bit);
                roce[bit / 8] ^= (byte) (1 << (bit % 8));
                trials++;
            }
            for (int bit = 0; bit < 32; bit++) {
                assertNotEquals(p.icrc() ^ (1 << bit), compute(p), p.where());
            }
        }
        assertTrue(trials > 100_000, "trials " + trials);
    }

    @Test
    void flippedHeaderFieldsFail() {
        for (CapturedRocePacket p : packets) {
            for (int bit = 0; bit < 16; bit++) {
                int b = 1 << bit;
                CapturedRocePacket q = p;
                assertNotEquals(p.icrc(), compute(new CapturedRocePacket(q.file(), q.frame(), q.ipv6(), q.src16(),
                    q.dst16(), q.ipId(), q.flagsFragment(), q.srcPort() ^ b, q.dstPort(), q.roce(), q.icrc(),
                    q.ipToEnd())), p.where() + " source port bit " + bit);
                assertNotEquals(p.icrc(), compute(new CapturedRocePacket(q.file(), q.frame(), q.ipv6(), q.src16(),
                    q.dst16(), q.ipId(), q.flagsFragment(), q.srcPort(), q.dstPort() ^ b, q.roce(), q.icrc(),
                    q.ipToEnd())), p.where() + " destination port bit " + bit);
                if (!p.ipv6()) {
                    assertNotEquals(p.icrc(), calc.computeIpv4(p.srcIpv4(), p.dstIpv4(), p.ipId() ^ b,
                        p.flagsFragment(), p.srcPort(), p.dstPort(), new UnsafeBuffer(p.roce()), 0, p.roce().length),
                        p.where() + " IP ID bit " + bit);
                    assertNotEquals(p.icrc(), calc.computeIpv4(p.srcIpv4(), p.dstIpv4(), p.ipId(),
                        p.flagsFragment() ^ b, p.srcPort(), p.dstPort(), new UnsafeBuffer(p.roce()), 0,
                        p.roce().length), p.where() + " flags/fragment bit " + bit);
                }
            }
            int addressBits = p.ipv6() ? 128 : 32;
            for (int bit = 0; bit < addressBits; bit++) {
                int i = 15 - bit / 8;
                byte m = (byte) (1 << (bit % 8));
                byte[] src = p.src16().clone();
                src[i] ^= m;
                byte[] dst = p.dst16().clone();
                dst[i] ^= m;
                assertNotEquals(p.icrc(), compute(new CapturedRocePacket(p.file(), p.frame(), p.ipv6(), src, p.dst16(),
                    p.ipId(), p.flagsFragment(), p.srcPort(), p.dstPort(), p.roce(), p.icrc(), p.ipToEnd())), p.where());
                assertNotEquals(p.icrc(), compute(new CapturedRocePacket(p.file(), p.frame(), p.ipv6(), p.src16(), dst,
                    p.ipId(), p.flagsFragment(), p.srcPort(), p.dstPort(), p.roce(), p.icrc(), p.ipToEnd())), p.where());
            }
        }
    }

    @Test
    void bthReservedByteIsMasked() {
        for (CapturedRocePacket p : packets) {
            byte[] roce = p.roce().clone();
            roce[4] = (byte) ~roce[4];
            assertEquals(p.icrc(), compute(withRoce(p, roce)), p.where());
        }
    }

    @Test
    void everyKindOfBufferGivesTheSameIcrc() {
        CapturedRocePacket captured = packets.stream().filter(x -> x.roce().length > 1000).findFirst().orElseThrow();
        byte[] longer = new byte[5000]; // longer than the raw-address path's scratch
        new Random(1).nextBytes(longer);
        CapturedRocePacket synthetic = withRoce(captured, longer);
        synthetic = withIcrc(synthetic, compute(synthetic));
        for (CapturedRocePacket p : List.of(captured, synthetic)) {
            int n = p.roce().length;
            int off = 37;

            ByteBuffer direct = ByteBuffer.allocateDirect(n + 100);
            direct.put(off, p.roce());
            direct.position(5).limit(60);
            assertEquals(p.icrc(), compute(p, new UnsafeBuffer(direct), off), "direct ByteBuffer");
            assertEquals(5, direct.position(), "position restored");
            assertEquals(60, direct.limit(), "limit restored");
            assertEquals(p.icrc(), compute(p, new UnsafeBuffer(direct, off - 7, n + 7), 7),
                "direct ByteBuffer, wrapped at an offset");

            ByteBuffer heap = ByteBuffer.allocate(n + 100);
            heap.put(off, p.roce());
            assertEquals(p.icrc(), compute(p, new UnsafeBuffer(heap), off), "heap ByteBuffer");
            assertEquals(p.icrc(), compute(p, new UnsafeBuffer(heap.slice(3, n + 90)), off - 3), "heap ByteBuffer slice");

            UnsafeBuffer address = new UnsafeBuffer(new UnsafeBuffer(direct).addressOffset(), n + 100);
            assertEquals(p.icrc(), compute(p, address, off), "raw address");

            ExpandableArrayBuffer expandable = new ExpandableArrayBuffer(16);
            expandable.putBytes(off, p.roce());
            assertEquals(p.icrc(), compute(p, expandable, off), "expandable array");

            byte[] array = new byte[n + 50];
            System.arraycopy(p.roce(), 0, array, 11, n);
            assertEquals(p.icrc(), compute(p, new UnsafeBuffer(array, 11, n), 0), "array at an offset");
        }
    }

    @Test
    void packetsEitherSideOfTheWholeCopyLimitMatchTheFrameOracle() {
        // Up to COPY_WHOLE_MAX bytes the packet is copied behind the pseudo-header and covered by
        // one CRC call; beyond, the header and the rest are two calls: both must give the CRC of
        // the masked frame, in every kind of buffer.
        Random rnd = new Random(256);
        int max = IcrcCalculator.COPY_WHOLE_MAX;
        for (int n : new int[] {12, 16, 80, max - 1, max, max + 1, 1000}) {
            for (boolean ipv6 : new boolean[] {false, true}) {
                byte[] roce = new byte[n];
                rnd.nextBytes(roce);
                CapturedRocePacket p = framed(ipv6, roce, rnd);
                String what = (ipv6 ? "IPv6, " : "IPv4, ") + n + " bytes";
                int oracle = p.maskedCrcOfFrameBytes();
                assertEquals(oracle, compute(p), what + ", array");
                ByteBuffer direct = ByteBuffer.allocateDirect(n + 9);
                direct.put(9, roce);
                assertEquals(oracle, compute(p, new UnsafeBuffer(direct), 9), what + ", direct ByteBuffer");
                assertEquals(oracle, compute(p, new UnsafeBuffer(new UnsafeBuffer(direct).addressOffset(), n + 9), 9),
                    what + ", raw address");
            }
        }
    }

    /** A packet as the frame of its IP and UDP headers (random addresses, ports, TOS, TTL, checksums) would carry it. */
    private static CapturedRocePacket framed(boolean ipv6, byte[] roce, Random rnd) {
        byte[] src16 = new byte[16];
        byte[] dst16 = new byte[16];
        rnd.nextBytes(src16);
        rnd.nextBytes(dst16);
        int ipLength = ipv6 ? 40 : 20;
        int udpLength = 8 + roce.length + IcrcCalculator.ICRC_LENGTH;
        ByteBuffer f = ByteBuffer.allocate(ipLength + udpLength);
        int ipId = rnd.nextInt(0x10000);
        if (ipv6) {
            f.putInt(0x60000000 | rnd.nextInt(0x10000000)).putShort((short) udpLength).put((byte) 17)
                .put((byte) rnd.nextInt()).put(src16).put(dst16);
        } else {
            f.put((byte) 0x45).put((byte) rnd.nextInt()).putShort((short) (20 + udpLength)).putShort((short) ipId)
                .putShort((short) IcrcCalculator.IPV4_FLAGS_DF).put((byte) rnd.nextInt()).put((byte) 17)
                .putShort((short) rnd.nextInt()).put(src16, 12, 4).put(dst16, 12, 4);
        }
        int srcPort = rnd.nextInt(0x10000);
        f.putShort((short) srcPort).putShort((short) CapturedRocePacket.ROCE_PORT).putShort((short) udpLength)
            .putShort((short) rnd.nextInt()).put(roce);
        return new CapturedRocePacket("synthetic", 0, ipv6, src16, dst16, ipId, IcrcCalculator.IPV4_FLAGS_DF,
            srcPort, CapturedRocePacket.ROCE_PORT, roce, 0, f.array());
    }

    @Test
    void icrcIsLittleEndianOnTheWire() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[8]);
        IcrcCalculator.writeIcrc(b, 2, 0x11223344);
        assertEquals(0x44, b.getByte(2));
        assertEquals(0x11, b.getByte(5));
        assertEquals(0x11223344, IcrcCalculator.readIcrc(b, 2));
    }

    @Test
    void rejectsImpossibleLengths() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[100]);
        assertThrows(IllegalArgumentException.class, () -> calc.computeIpv4(1, 2, 0, 0, 1, 2, b, 0, 11));
        assertThrows(IllegalArgumentException.class,
            () -> calc.computeIpv4(1, 2, 0, 0, 1, 2, b, 0, IcrcCalculator.MAX_IPV4_ROCE_LENGTH + 1));
        assertThrows(IllegalArgumentException.class,
            () -> calc.computeIpv6(new byte[16], new byte[16], 1, 2, b, 0, IcrcCalculator.MAX_IPV6_ROCE_LENGTH + 1));
        assertThrows(IllegalArgumentException.class, () -> calc.computeIpv6(new byte[4], new byte[16], 1, 2, b, 0, 12));
        assertThrows(IndexOutOfBoundsException.class, () -> calc.computeIpv4(1, 2, 0, 0, 1, 2, b, 50, 51));
    }

    private static CapturedRocePacket withIcrc(CapturedRocePacket p, int icrc) {
        return new CapturedRocePacket(p.file(), p.frame(), p.ipv6(), p.src16(), p.dst16(), p.ipId(), p.flagsFragment(),
            p.srcPort(), p.dstPort(), p.roce(), icrc, p.ipToEnd());
    }

    private static CapturedRocePacket withRoce(CapturedRocePacket p, byte[] roce) {
        return new CapturedRocePacket(p.file(), p.frame(), p.ipv6(), p.src16(), p.dst16(), p.ipId(), p.flagsFragment(),
            p.srcPort(), p.dstPort(), roce, p.icrc(), p.ipToEnd());
    }
}
