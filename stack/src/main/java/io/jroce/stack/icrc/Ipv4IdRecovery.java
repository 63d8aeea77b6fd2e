package io.jroce.stack.icrc;

import org.agrona.DirectBuffer;

/**
 * Checks the ICRC of a received IPv4 RoCE packet whose IP identification field (and DF flag) the
 * receiver cannot see, as with a Java UDP socket. The ICRC covers the ID, and rxe sends a new ID
 * per packet (docs/udp-transport.md), so the question is: does SOME ID, with DF set or clear, make
 * the received ICRC valid? Answered without trying 65,536 IDs:
 *
 * <p>CRC-32 is affine over GF(2), so for two packets that differ only in the 17 unknown bits
 * (the 16 ID bits and DF) the ICRCs differ by a linear function of those bits alone, and that
 * function depends only on how many bytes follow them. Hence the syndrome
 * {@code S = ICRC(ID 0, DF set) XOR received ICRC} must equal {@code sum x_i * b_i}, where
 * {@code b_i} is the CRC register of unit bit {@code i} shifted across the trailing bytes, i.e.
 * multiplied by {@code x^(8n) mod P}. The 17 basis vectors of a length are computed once
 * (polynomial arithmetic modulo the CRC-32 polynomial), reduced to echelon form by Gaussian
 * elimination, and cached; a check is then at most 17 XOR steps. The solution is unique because
 * CRC-32 detects every error burst of up to 32 bits, and the 17 bits lie within 18.
 *
 * <p>The price: a corrupted packet passes with probability 2^-15 instead of 2^-32, since any of
 * the 2^17 ID/DF values is accepted. Packets from jroce's own epoll transport carry ID 0 with DF
 * and pass the exact check first.
 *
 * <p>Not thread-safe (it holds the last result and an {@link IcrcCalculator}); the per-length
 * cache is shared, immutable and safe to publish between threads.
 */
public final class Ipv4IdRecovery {
    /** Returned when no ID makes the ICRC valid. */
    public static final int NOT_FOUND = -1;

    /** CRC-32 (IEEE 802.3) polynomial, bit-reflected as CRC32 uses it. */
    private static final int POLY = 0xEDB88320;
    /** The polynomial 1 (x^0) in the reflected representation. */
    private static final int X0 = 0x80000000;
    /** Solution bit standing for "DF clear" (it toggles bit 14 of the flags/fragment word). */
    static final int DF_CLEAR = 1 << 16;
    private static final int UNKNOWNS = 17;
    /**
     * Bytes of the masked IPv4 and UDP headers after the ID and flags/fragment words:
     * TTL, protocol, checksum, source, destination (12), then UDP (8).
     */
    private static final int HEADER_BYTES_AFTER_FLAGS = 12 + 8;
    /** CRC registers (initial value 0) of the 4 bytes ID, flags/fragment with one unknown bit set. */
    private static final int[] UNIT_REGISTERS = new int[UNKNOWNS];
    private static final Solver[] SOLVERS = new Solver[IcrcCalculator.MAX_IPV4_ROCE_LENGTH + 1];

    static {
        for (int i = 0; i < UNKNOWNS; i++) {
            int idAndFlags = i < 16 ? (1 << i) << 16 : 0x4000;
            UNIT_REGISTERS[i] = rawCrc(idAndFlags);
        }
    }

    private final IcrcCalculator calculator = new IcrcCalculator();
    private int lastFlagsFragment = IcrcCalculator.IPV4_FLAGS_DF;

    /**
     * Finds the IP ID under which {@code receivedIcrc} is the packet's valid ICRC.
     *
     * @return the 16-bit ID, or {@link #NOT_FOUND}; on success {@link #lastFlagsFragment()} tells DF
     * @param srcIpv4 source address, big-endian in an int
     * @param dstIpv4 destination address
     * @param srcPort the UDP source port
     * @param dstPort the UDP destination port
     * @param roce the packet from its BTH
     * @param off index of the BTH in {@code roce}
     * @param lengthWithoutIcrc BTH, extension headers, payload and pad
     * @param receivedIcrc the ICRC the packet carries
     */
    public int recoverId(int srcIpv4, int dstIpv4, int srcPort, int dstPort,
                         DirectBuffer roce, int off, int lengthWithoutIcrc, int receivedIcrc) {
        int base = calculator.computeIpv4(srcIpv4, dstIpv4, 0, IcrcCalculator.IPV4_FLAGS_DF, srcPort, dstPort,
            roce, off, lengthWithoutIcrc);
        return recoverId(base ^ receivedIcrc, lengthWithoutIcrc);
    }

    /**
     * The same from a syndrome the caller already has, saving a second CRC pass.
     *
     * @param syndrome          the ICRC computed with ID 0 and flags {@link IcrcCalculator#IPV4_FLAGS_DF},
     *                          XOR the received ICRC
     * @param lengthWithoutIcrc RoCE length (BTH to pad) of the packet
     * @return the 16-bit ID, or {@link #NOT_FOUND}
     */
    public int recoverId(int syndrome, int lengthWithoutIcrc) {
        int solution = solve(syndrome, lengthWithoutIcrc);
        if (solution < 0) {
            return NOT_FOUND;
        }
        lastFlagsFragment = (solution & DF_CLEAR) != 0 ? 0 : IcrcCalculator.IPV4_FLAGS_DF;
        return solution & 0xFFFF;
    }

    /**
     * The flags/fragment word of the last successful recovery: {@code 0x4000} (DF) or {@code 0}.
     *
     * @return the word
     */
    public int lastFlagsFragment() {
        return lastFlagsFragment;
    }

    /** The 17 unknown bits (ID in bits 0-15, {@link #DF_CLEAR} in bit 16) that explain {@code syndrome}, or -1. */
    static int solve(int syndrome, int lengthWithoutIcrc) {
        if (lengthWithoutIcrc < IcrcCalculator.BTH_LENGTH || lengthWithoutIcrc > IcrcCalculator.MAX_IPV4_ROCE_LENGTH) {
            throw new IllegalArgumentException("RoCE packet length without ICRC out of range: " + lengthWithoutIcrc);
        }
        Solver solver = SOLVERS[lengthWithoutIcrc];
        if (solver == null) {
            solver = new Solver(lengthWithoutIcrc);
            SOLVERS[lengthWithoutIcrc] = solver; // benign race: equal immutable values
        }
        return solver.solve(syndrome);
    }

    /** Basis of the syndromes for one packet length, in echelon form. */
    static final class Solver {
        private final int[] vectors = new int[UNKNOWNS];
        private final int[] pivots = new int[UNKNOWNS];
        private final int[] combinations = new int[UNKNOWNS];
        private final int rank;

        Solver(int lengthWithoutIcrc) {
            int shift = xPow8n(HEADER_BYTES_AFTER_FLAGS + lengthWithoutIcrc);
            int r = 0;
            for (int i = 0; i < UNKNOWNS; i++) {
                int v = multiplyModP(UNIT_REGISTERS[i], shift);
                int c = 1 << i;
                for (int j = 0; j < r; j++) {
                    if ((v & pivots[j]) != 0) {
                        v ^= vectors[j];
                        c ^= combinations[j];
                    }
                }
                if (v != 0) {
                    vectors[r] = v;
                    pivots[r] = Integer.lowestOneBit(v);
                    combinations[r] = c;
                    r++;
                }
            }
            rank = r;
        }

        int rank() {
            return rank;
        }

        /** Rows are reduced against earlier pivots, so one pass in order clears every pivot bit. */
        int solve(int syndrome) {
            int s = syndrome;
            int x = 0;
            for (int j = 0; j < rank; j++) {
                if ((s & pivots[j]) != 0) {
                    s ^= vectors[j];
                    x ^= combinations[j];
                }
            }
            return s == 0 ? x : -1;
        }
    }

    /** {@code a * b mod P}, both polynomials bit-reflected (bit 31 is x^0). */
    static int multiplyModP(int a, int b) {
        int product = 0;
        for (int m = X0; m != 0; m >>>= 1) {
            if ((a & m) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1; // b *= x
        }
        return product;
    }

    /** {@code x^(8n) mod P}: what appending n zero bytes multiplies a CRC register (initial value 0) by. */
    static int xPow8n(long n) {
        int result = X0;
        int square = X0 >>> 8; // x^8
        while (n != 0) {
            if ((n & 1) != 0) {
                result = multiplyModP(result, square);
            }
            square = multiplyModP(square, square);
            n >>>= 1;
        }
        return result;
    }

    /** CRC register (initial value 0, no final XOR) after the 4 big-endian bytes of {@code word}. */
    static int rawCrc(int word) {
        int r = 0;
        for (int shift = 24; shift >= 0; shift -= 8) {
            r ^= (word >>> shift) & 0xFF;
            for (int k = 0; k < 8; k++) {
                r = (r & 1) != 0 ? (r >>> 1) ^ POLY : r >>> 1;
            }
        }
        return r;
    }
}
