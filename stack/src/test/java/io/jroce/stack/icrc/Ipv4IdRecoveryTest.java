package io.jroce.stack.icrc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class Ipv4IdRecoveryTest {
    private static List<CapturedRocePacket> ipv4;
    private final Ipv4IdRecovery recovery = new Ipv4IdRecovery();
    private final IcrcCalculator calc = new IcrcCalculator();

    @BeforeAll
    static void load() {
        ipv4 = CapturedRocePacket.all().stream().filter(p -> !p.ipv6()).toList();
    }

    private int recover(CapturedRocePacket p, byte[] roce, int icrc) {
        return recovery.recoverId(p.srcIpv4(), p.dstIpv4(), p.srcPort(), p.dstPort(),
            new UnsafeBuffer(roce), 0, roce.length, icrc);
    }

    @Test
    void recoversTheRealIdOfEveryCapturedPacket() {
        for (CapturedRocePacket p : ipv4) {
            assertNotEquals(0, p.ipId(), p.where() + ": rxe sends nonzero IDs, so this test proves something");
            assertEquals(p.ipId(), recover(p, p.roce(), p.icrc()), p.where());
            assertEquals(p.flagsFragment(), recovery.lastFlagsFragment(), p.where());
        }
        assertTrue(ipv4.size() > 1000);
    }

    @Test
    void aFlippedBitNeverYieldsTheRealIdAndRarelyAnyId() {
        Random rnd = new Random(17);
        int trials = 0;
        int aliases = 0;
        for (CapturedRocePacket p : ipv4) {
            byte[] roce = p.roce().clone();
            for (int s = 0; s < 48; s++) {
                int bit = rnd.nextInt(roce.length * 8 + 32);
                int icrc = p.icrc();
                if (bit < roce.length * 8) {
                    if (bit / 8 == 4) {
                        continue; // masked
                    }
                    roce[bit / 8] ^= (byte) (1 << (bit % 8));
                } else {
                    icrc ^= 1 << (bit - roce.length * 8);
                }
                int id = recover(p, roce, icrc);
                assertNotEquals(p.ipId(), id, p.where() + " bit " + bit);
                if (id != Ipv4IdRecovery.NOT_FOUND) {
                    aliases++;
                }
                if (bit < roce.length * 8) {
                    roce[bit / 8] ^= (byte) (1 << (bit % 8));
                }
                trials++;
            }
        }
        // Any of 2^17 ID/DF values is accepted, so a random error passes with probability 2^-15.
        System.out.println("flipped bits explained by another IP ID: " + aliases + " of " + trials);
        assertTrue(aliases <= Math.max(5, trials / 3000), aliases + " aliases in " + trials + " trials");
    }

    @Test
    void randomPacketsLengthsAndIds() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 3000; i++) {
            int length = switch (i % 10) {
                case 0 -> IcrcCalculator.BTH_LENGTH;
                case 1 -> IcrcCalculator.MAX_IPV4_ROCE_LENGTH - rnd.nextInt(4);
                case 2 -> 12 + rnd.nextInt(60000);
                default -> 12 + rnd.nextInt(4200);
            };
            byte[] roce = new byte[length];
            rnd.nextBytes(roce);
            int src = rnd.nextInt();
            int dst = rnd.nextInt();
            int sport = rnd.nextInt(65536);
            int id = rnd.nextInt(65536);
            int flags = rnd.nextBoolean() ? IcrcCalculator.IPV4_FLAGS_DF : 0;
            int icrc = calc.computeIpv4(src, dst, id, flags, sport, 4791, new UnsafeBuffer(roce), 0, length);
            String what = "seed " + seed + " case " + i + " length " + length;
            assertEquals(id, recovery.recoverId(src, dst, sport, 4791, new UnsafeBuffer(roce), 0, length, icrc), what);
            assertEquals(flags, recovery.lastFlagsFragment(), what);
        }
    }

    @Test
    void aRandomSyndromeIsRejectedAboutAsOftenAsTheTheoryPredicts() {
        Random rnd = new Random(99);
        int accepted = 0;
        int n = 1 << 20;
        for (int i = 0; i < n; i++) {
            if (Ipv4IdRecovery.solve(rnd.nextInt(), 12 + (i & 1023)) >= 0) {
                accepted++;
            }
        }
        // expected n / 2^15 = 32
        assertTrue(accepted > 5 && accepted < 100, "accepted " + accepted);
    }

    @Test
    void everyLengthHasSeventeenIndependentBasisVectors() {
        for (int length = IcrcCalculator.BTH_LENGTH; length <= IcrcCalculator.MAX_IPV4_ROCE_LENGTH; length++) {
            assertEquals(17, new Ipv4IdRecovery.Solver(length).rank(), "length " + length);
        }
    }

    @Test
    void shiftingByZeroBytesMatchesCrc32() {
        Random rnd = new Random(5);
        for (int n : new int[] {0, 1, 2, 3, 7, 8, 100, 1000, 65535}) {
            int word = rnd.nextInt();
            byte[] msg = new byte[4 + n];
            msg[0] = (byte) (word >>> 24);
            msg[1] = (byte) (word >>> 16);
            msg[2] = (byte) (word >>> 8);
            msg[3] = (byte) word;
            // CRC32 of (word, zeros) XOR CRC32 of all zeros = the register with initial value 0
            int expected = crc32(msg) ^ crc32(new byte[4 + n]);
            assertEquals(expected, Ipv4IdRecovery.multiplyModP(Ipv4IdRecovery.rawCrc(word), Ipv4IdRecovery.xPow8n(n)),
                "n " + n);
        }
    }

    @Test
    void rejectsImpossibleLengths() {
        assertThrows(IllegalArgumentException.class, () -> recovery.recoverId(0, 11));
        assertThrows(IllegalArgumentException.class,
            () -> recovery.recoverId(0, IcrcCalculator.MAX_IPV4_ROCE_LENGTH + 1));
        assertEquals(0, recovery.recoverId(0, 12), "a zero syndrome is ID 0 with DF");
        assertEquals(IcrcCalculator.IPV4_FLAGS_DF, recovery.lastFlagsFragment());
    }

    private static int crc32(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return (int) c.getValue();
    }
}
