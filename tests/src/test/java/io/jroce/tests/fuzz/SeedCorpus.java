package io.jroce.tests.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.mad.CmMraFlyweight;
import io.jroce.stack.mad.CmRejFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.pcap.PcapReader;

/**
 * Writes the seed corpus of {@link ReceivePathFuzzTest} in {@link FuzzedDatagram}'s format: the
 * first request packets of each rxe capture in stack/src/test/resources/captures (their QPN, PSN and
 * R_Key/Q_Key fixed up onto the victim's QPs and MRs), and valid packets for the cases the fabric
 * tests cover (every RC opcode a responder takes, UC, UD, both SRQ QPs, duplicates, strangers).
 * Run once from the repository root with the test classpath, then commit the files:
 * {@code java -cp ... io.jroce.tests.fuzz.SeedCorpus stack/src/test/resources/captures
 * tests/src/test/resources/io/jroce/tests/fuzz/ReceivePathFuzzTestInputs/receive}.
 */
final class SeedCorpus {
    private static final int FIX_QP = 0x04;
    private static final int FIX_PSN = 0x40;
    private static final int FIX_KEY = 0x80;
    private static final int PACKETS_PER_CAPTURE = 8;

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path captures = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        try (var files = Files.list(captures)) {
            for (Path pcap : files.filter(p -> p.toString().endsWith(".pcap")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(pcap)) {
                    byte[] seed = fromCapture(PcapReader.read(in));
                    if (seed.length > 0) {
                        seeds.put(pcap.getFileName().toString().replace(".pcap", ""), seed);
                    }
                }
            }
        }
        handBuilt(seeds);
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            Files.write(out.resolve(e.getKey()), e.getValue());
        }
    }

    /** The first request packets sent by the capture's first sender, as records aimed at the matching victim QP. */
    static byte[] fromCapture(List<PcapReader.Record> records) {
        ByteArrayOutputStream seed = new ByteArrayOutputStream();
        byte[] sender = null;
        int firstPsn = -1;
        int n = 0;
        for (PcapReader.Record r : records) {
            byte[][] parsed = roce(r.data());
            if (parsed == null) {
                continue;
            }
            byte[] src = parsed[0];
            byte[] packet = parsed[1];
            int opcode = packet[0] & 0xFF;
            boolean response = opcode >= 0x0D && opcode <= 0x12;
            if (sender == null) {
                sender = src;
            }
            if (!Arrays.equals(src, sender) || response || n >= PACKETS_PER_CAPTURE) {
                continue;
            }
            int psn = ByteBuffer.wrap(packet).getInt(8) & 0xFFFFFF;
            if (firstPsn < 0) {
                firstPsn = psn;
            }
            packet[11] = (byte) Math.min(127, (psn - firstPsn) & 0xFFFFFF);
            int qp = switch (opcode >>> 5) {
                case 1 -> Population.UC;
                case 3 -> Population.UD;
                default -> Population.RC;
            };
            boolean keyed = qp == Population.UD || (opcode >= 0x06 && opcode <= 0x0C && opcode != 0x07 && opcode != 0x08
                && opcode != 0x09) || opcode == 0x13 || opcode == 0x14 || opcode == 0x26 || opcode == 0x2A || opcode == 0x2B;
            if (keyed && qp != Population.UD) {
                // Aim at the read/write MR's start; byte 20 (MR 0) and bytes 18-19 (offset 0) are what the fix-up reads.
                Arrays.fill(packet, 12, 21, (byte) 0);
            }
            record(seed, FIX_QP | FIX_PSN | (keyed ? FIX_KEY : 0) | (qp << 3), packet);
            n++;
        }
        return seed.toByteArray();
    }

    /** {source address, packet from BTH to before the ICRC} of an Ethernet frame to UDP 4791, or null. */
    private static byte[][] roce(byte[] frame) {
        ByteBuffer b = ByteBuffer.wrap(frame);
        if (frame.length < 14) {
            return null;
        }
        int etherType = b.getShort(12) & 0xFFFF;
        int l4;
        byte[] src = new byte[16];
        if (etherType == 0x0800) {
            l4 = 14 + (b.get(14) & 0x0F) * 4;
            if (frame.length < 34 || b.get(14 + 9) != 17) {
                return null;
            }
            System.arraycopy(frame, 14 + 12, src, 12, 4);
        } else if (etherType == 0x86DD) {
            l4 = 14 + 40;
            if (frame.length < l4 || b.get(14 + 6) != 17) {
                return null;
            }
            System.arraycopy(frame, 14 + 8, src, 0, 16);
        } else {
            return null;
        }
        if (frame.length < l4 + 8 + 12 + 4 || (b.getShort(l4 + 2) & 0xFFFF) != 4791) {
            return null;
        }
        int udpEnd = Math.min(frame.length, l4 + (b.getShort(l4 + 4) & 0xFFFF));
        return new byte[][] {src, Arrays.copyOfRange(frame, l4 + 8, udpEnd - 4)};
    }

    private static void handBuilt(Map<String, byte[]> seeds) {
        int rc = qp(Population.RC);
        int all = FIX_QP | FIX_PSN;
        seeds.put("rc-send-only", rec(rc | all, bth(0x04, 0, 0), zeros(64)));
        seeds.put("rc-send-first-middle-last", cat(rec(rc | all, bth(0x00, 0, 0), zeros(256)),
            rec(rc | all, bth(0x01, 0, 1), zeros(256)), rec(rc | all, bth(0x02, 0, 2), zeros(100))));
        seeds.put("rc-send-imm", rec(rc | all, bth(0x05, 0, 0), new byte[] {0, 0, 0, 99}, zeros(32)));
        seeds.put("rc-write-only", rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), reth(0, 128, 64), zeros(64)));
        seeds.put("rc-write-first-middle-last", cat(rec(rc | all | FIX_KEY, bth(0x06, 0, 0), reth(0, 0, 600), zeros(256)),
            rec(rc | all, bth(0x07, 0, 1), zeros(256)), rec(rc | all, bth(0x08, 0, 2), zeros(88))));
        seeds.put("rc-write-imm", rec(rc | all | FIX_KEY, bth(0x0B, 0, 0), reth(0, 1024, 16), new byte[] {0, 0, 0, 7},
            zeros(16)));
        seeds.put("rc-write-read-only-mr", rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), reth(1, 0, 64), zeros(64)));
        seeds.put("rc-write-past-end", rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), reth(0, 4090, 16), zeros(16)));
        seeds.put("rc-read", rec(rc | all | FIX_KEY, bth(0x0C, 0, 0), reth(0, 0, 600)));
        seeds.put("rc-read-read-only-mr", rec(rc | all | FIX_KEY, bth(0x0C, 0, 0), reth(1, 0, 64)));
        seeds.put("rc-cmp-swap", rec(rc | all | FIX_KEY, bth(0x13, 0, 0), atomic(0, 64, 5, 0)));
        seeds.put("rc-fetch-add", rec(rc | all | FIX_KEY, bth(0x14, 0, 0), atomic(0, 72, 3, 0)));
        seeds.put("rc-duplicate-send", cat(rec(rc | all, bth(0x04, 0, 0), zeros(8)), rec(rc | all, bth(0x04, 0, 0), zeros(8))));
        seeds.put("rc-duplicate-write-then-read", cat(rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), reth(0, 0, 8), zeros(8)),
            rec(rc | all | FIX_KEY, bth(0x0C, 0, 1), reth(0, 0, 8)), rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), reth(0, 0, 8),
                zeros(8))));
        seeds.put("rc-out-of-sequence", rec(rc | all, bth(0x04, 0, 9), zeros(8)));
        // Responses to the victim's outstanding SEND (PSN +0) and READ (PSNs +1, +2), and past them.
        seeds.put("rc-ack-outstanding-send", rec(rc | all, bth(0x11, 0, 0), new byte[] {0, 0, 0, 1}));
        seeds.put("rc-ack-then-read-response", cat(rec(rc | all, bth(0x11, 0, 0), new byte[] {0, 0, 0, 1}),
            rec(rc | all, bth(0x0D, 0, 1), new byte[] {0, 0, 0, 1}, zeros(256)), rec(rc | all, bth(0x0F, 0, 2),
                new byte[] {0, 0, 0, 2}, zeros(256))));
        seeds.put("rc-ack-beyond-outstanding", rec(rc | all, bth(0x11, 0, 9), new byte[] {0, 0, 0, 1}));
        seeds.put("rc-nak-sequence-error", rec(rc | all, bth(0x11, 0, 0), new byte[] {0x60, 0, 0, 0}));
        seeds.put("rc-rnr-nak", rec(rc | all, bth(0x11, 0, 0), new byte[] {0x2c, 0, 0, 0}));
        seeds.put("rc-from-stranger", rec(rc | all | 1, bth(0x04, 0, 0), zeros(8)));
        seeds.put("rc-from-own-address", rec(rc | all | 2, bth(0x04, 0, 0), zeros(8)));
        seeds.put("rc-bad-pkey", rec(rc | all, bth(0x04, 0x1234, 0), zeros(8)));
        int uc = qp(Population.UC);
        seeds.put("uc-send-only", rec(uc | all, bth(0x24, 0, 0), zeros(40)));
        seeds.put("uc-write-only", rec(uc | all | FIX_KEY, bth(0x2A, 0, 0), reth(0, 256, 32), zeros(32)));
        seeds.put("uc-send-first-last", cat(rec(uc | all, bth(0x20, 0, 0), zeros(256)), rec(uc | all, bth(0x22, 0, 1),
            zeros(12))));
        int ud = qp(Population.UD);
        seeds.put("ud-send-only", rec(ud | all | FIX_KEY, bth(0x64, 0, 0), deth(), zeros(100)));
        seeds.put("ud-send-imm-from-stranger", rec(ud | all | FIX_KEY | 1, bth(0x65, 0, 0), deth(), new byte[] {0, 0, 0, 1},
            zeros(20)));
        seeds.put("ud-wrong-qkey", rec(ud | all, bth(0x64, 0, 0), deth(), zeros(20)));
        seeds.put("srq-send-only-both", cat(rec(qp(Population.SRQ_RC_1) | all, bth(0x04, 0, 0), zeros(64)),
            rec(qp(Population.SRQ_RC_2) | all, bth(0x04, 0, 0), zeros(64))));
        seeds.put("unknown-qpn", rec(0, bth(0x04, 0, 0), zeros(8)));
        seeds.put("truncated-reth", rec(rc | all | FIX_KEY, bth(0x0A, 0, 0), new byte[] {0, 0, 0, 0}));
        cmSeeds(seeds);
    }

    /**
     * CM MADs to QP1: REQs for the victim's listened service (one with out-of-range fields, from a
     * stranger), and messages naming its live connections' comm IDs through the QP1 fix-up.
     */
    private static void cmSeeds(Map<String, byte[]> seeds) {
        seeds.put("cm-req-to-listener", rec(0, gsiBth(), gsiDeth(), req(0x1001, r -> { })));
        seeds.put("cm-req-out-of-range-from-stranger", rec(1, gsiBth(), gsiDeth(), req(0x1002, r -> r.pathMtu(0)
            .localQpn(0xFFFFFF).responderResources(255).initiatorDepth(255).localCmResponseTimeout(31)
            .remoteCmResponseTimeout(31))));
        seeds.put("cm-req-repeated-then-rej", cat(rec(0, gsiBth(), gsiDeth(), req(0x1003, r -> { })),
            rec(0, gsiBth(), gsiDeth(), req(0x1003, r -> { })),
            rec(0, gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_REJ, m -> new CmRejFlyweight().wrap(m, 0)
                .localCommId(0x1003).remoteCommId(0).messageRejected(CmRejFlyweight.REJECTED_REP).reason(28)))));
        seeds.put("cm-dreq-live-active", rec(FIX_KEY | qp(0), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_DREQ,
            m -> { })));
        seeds.put("cm-dreq-live-passive-then-repeat", cat(
            rec(FIX_KEY | qp(1), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_DREQ, m -> { })),
            rec(FIX_KEY | qp(1), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_DREQ, m -> { }))));
        seeds.put("cm-rej-live", rec(FIX_KEY | qp(0), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_REJ,
            m -> new CmRejFlyweight().wrap(m, 0).messageRejected(CmRejFlyweight.REJECTED_OTHER).reason(10)
                .rejectInfoLength(127))));
        seeds.put("cm-rep-rtu-mra-drep-live", cat(
            rec(FIX_KEY | qp(0), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_REP, m -> { })),
            rec(FIX_KEY | qp(1), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_RTU, m -> { })),
            rec(FIX_KEY | qp(1), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_MRA,
                m -> new CmMraFlyweight().wrap(m, 0).messageMraed(CmMraFlyweight.MRAED_REP).serviceTimeout(31))),
            rec(FIX_KEY | qp(0), gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_DREP, m -> { }))));
        seeds.put("cm-dreq-unknown", rec(0, gsiBth(), gsiDeth(), mad(MadHeaderFlyweight.ATTR_DREQ,
            m -> {
                m.putInt(24, 0x5555);
                m.putInt(28, 0x6666);
            })));
    }

    /** A BTH of a UD SEND Only to QP1. */
    private static byte[] gsiBth() {
        ByteBuffer b = ByteBuffer.wrap(bth(0x64, 0, 0));
        b.putInt(4, 1);
        return b.array();
    }

    /** A DETH with the GSI's Q_Key, from QP1. */
    private static byte[] gsiDeth() {
        return new byte[] {(byte) 0x80, 0x01, 0, 0, 0, 0, 0, 0x01};
    }

    /** A 256-byte CM MAD of {@code attribute}, its fields set by {@code fields}. */
    private static byte[] mad(int attribute, java.util.function.Consumer<UnsafeBuffer> fields) {
        byte[] mad = new byte[256];
        UnsafeBuffer m = new UnsafeBuffer(mad);
        new MadHeaderFlyweight().wrap(m, 0).cmSend(attribute, 0x77);
        fields.accept(m);
        return mad;
    }

    /** A REQ as the kernel's CMA sends it for {@link Population#CM_SERVICE}, then changed by {@code tweak}. */
    private static byte[] req(int commId, java.util.function.Consumer<CmReqFlyweight> tweak) {
        return mad(MadHeaderFlyweight.ATTR_REQ, m -> {
            CmReqFlyweight r = new CmReqFlyweight().wrap(m, 0).localCommId(commId).serviceId(Population.CM_SERVICE)
                .localCaGuid(0xFEED).localQpn(0x44).responderResources(1).initiatorDepth(1)
                .remoteCmResponseTimeout(20).transportServiceType(CmReqFlyweight.TRANSPORT_RC).startingPsn(0x123)
                .localCmResponseTimeout(20).retryCount(7).partitionKey(0xFFFF).pathMtu(1).rnrRetryCount(7)
                .maxCmRetries(15);
            m.putByte(CmReqFlyweight.PRIVATE_DATA_OFFSET + 1, (byte) 0x40);
            tweak.accept(r);
        });
    }

    private static int qp(int index) {
        return index << 3;
    }

    /** A BTH with the default P_Key (or {@code pkey}), AckReq set, and the PSN's low byte {@code psnDelta}. */
    private static byte[] bth(int opcode, int pkey, int psnDelta) {
        ByteBuffer b = ByteBuffer.allocate(12);
        b.put(0, (byte) opcode);
        b.putShort(2, (short) (pkey == 0 ? 0xFFFF : pkey));
        b.put(8, (byte) 0x80);
        b.put(11, (byte) psnDelta);
        return b.array();
    }

    /** A RETH laid out for the fix-up: offset in bytes 18-19 (6-7 here), MR selector in byte 20 (8 here). */
    private static byte[] reth(int mr, int offset, int length) {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putShort(6, (short) offset);
        b.put(8, (byte) mr);
        b.putInt(12, length);
        return b.array();
    }

    private static byte[] atomic(int mr, int offset, long swapAdd, long compare) {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.putShort(6, (short) offset);
        b.put(8, (byte) mr);
        b.putLong(12, swapAdd);
        b.putLong(20, compare);
        return b.array();
    }

    private static byte[] deth() {
        return new byte[] {0, 0, 0, 0, 0, 0, 0, 0x11};
    }

    private static byte[] zeros(int n) {
        return new byte[n];
    }

    private static byte[] rec(int control, byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        record(out, control, cat(parts));
        return out.toByteArray();
    }

    private static void record(ByteArrayOutputStream out, int control, byte[] packet) {
        out.write(control);
        out.write(packet.length >>> 8);
        out.write(packet.length);
        out.writeBytes(packet);
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
