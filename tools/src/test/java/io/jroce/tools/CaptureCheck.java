package io.jroce.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.pcap.PcapReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;

/**
 * Reads a capture written with {@code --pcap} and checks it: every frame is Ethernet, IP, UDP and
 * a RoCE packet whose ICRC verifies for the frame's own headers; and, when tshark is installed,
 * every frame dissects as InfiniBand with nothing malformed.
 */
public final class CaptureCheck {
    private static final long TSHARK_TIMEOUT_S = 300;

    private CaptureCheck() {
    }

    /** One RoCE packet of a capture, from its BTH, without the ICRC; addresses as 16 bytes. */
    public record Packet(int frame, byte[] src16, byte[] dst16, int srcPort, int dstPort, byte[] roce) {
        public int opcode() {
            return roce[0] & 0xFF;
        }

        public int psn() {
            return ByteBuffer.wrap(roce, 8, 4).getInt() & 0xFFFFFF;
        }

        public int destQp() {
            return ByteBuffer.wrap(roce, 4, 4).getInt() & 0xFFFFFF;
        }
    }

    /** Every frame of {@code file}, each checked: IP/UDP well formed and the ICRC valid. */
    public static List<Packet> readVerified(Path file) throws IOException {
        List<PcapReader.Record> records;
        try (InputStream in = Files.newInputStream(file)) {
            records = PcapReader.read(in);
        }
        IcrcCalculator icrc = new IcrcCalculator();
        List<Packet> packets = new ArrayList<>();
        for (PcapReader.Record r : records) {
            assertEquals(PcapReader.LINKTYPE_ETHERNET, r.linkType());
            ByteBuffer b = ByteBuffer.wrap(r.data());
            int etherType = b.getShort(12) & 0xFFFF;
            byte[] src16 = new byte[16];
            byte[] dst16 = new byte[16];
            int udp;
            int ipId = 0;
            int flags = 0;
            if (etherType == 0x0800) {
                udp = 14 + 20;
                ipId = b.getShort(18) & 0xFFFF;
                flags = b.getShort(20) & 0xFFFF;
                src16[10] = src16[11] = dst16[10] = dst16[11] = (byte) 0xFF;
                b.get(26, src16, 12, 4);
                b.get(30, dst16, 12, 4);
            } else {
                assertEquals(0x86DD, etherType, "frame " + r.index());
                udp = 14 + 40;
                b.get(22, src16);
                b.get(38, dst16);
            }
            int udpLength = b.getShort(udp + 4) & 0xFFFF;
            assertEquals(r.data().length, udp + udpLength, "frame " + r.index() + " length");
            int roceLength = udpLength - 8 - IcrcCalculator.ICRC_LENGTH;
            byte[] roce = Arrays.copyOfRange(r.data(), udp + 8, udp + 8 + roceLength);
            int srcPort = b.getShort(udp) & 0xFFFF;
            int dstPort = b.getShort(udp + 2) & 0xFFFF;
            UnsafeBuffer rb = new UnsafeBuffer(roce);
            int expected = etherType == 0x0800
                ? icrc.computeIpv4(ByteBuffer.wrap(src16, 12, 4).getInt(), ByteBuffer.wrap(dst16, 12, 4).getInt(),
                    ipId, flags, srcPort, dstPort, rb, 0, roceLength)
                : icrc.computeIpv6(src16, dst16, srcPort, dstPort, rb, 0, roceLength);
            int onWire = IcrcCalculator.readIcrc(new UnsafeBuffer(r.data()), udp + 8 + roceLength);
            assertEquals(expected, onWire, () -> file + " frame " + r.index() + ": ICRC does not verify");
            packets.add(new Packet(r.index(), src16, dst16, srcPort, dstPort, roce));
        }
        return packets;
    }

    /**
     * Runs tshark on {@code file} (skipping the test, saying why, when it is not installed):
     * every frame must dissect as InfiniBand (RoCEv2), none malformed or with an error. Ports
     * other than 4791 are decoded as RoCEv2 too. The RPC-over-RDMA heuristic is off: tshark 4.0's
     * packet_is_rpcordma reads payload bytes 12..15 before checking the length, so it marks every
     * SEND Only under 16 bytes of payload malformed, whoever sent it.
     */
    public static void assertTsharkDissectsAsRoce(Path file, int frames, int... udpPorts)
        throws IOException, InterruptedException {
        Path tshark = Path.of("/usr/bin/tshark");
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "tshark"))) {
                tshark = Path.of(dir, "tshark");
                break;
            }
        }
        Assumptions.assumeTrue(Files.isExecutable(tshark),
            "tshark is not installed: the capture was not checked with a dissector (apt-get install tshark)");
        List<String> base = new ArrayList<>(List.of(tshark.toString(), "-n", "-r", file.toString(),
            "--disable-heuristic", "rpcrdma_infiniband"));
        for (int port : udpPorts) {
            if (port != 4791) {
                base.addAll(List.of("-d", "udp.port==" + port + ",infiniband"));
            }
        }
        List<String> protocols = run(base, "-T", "fields", "-e", "frame.protocols");
        assertEquals(frames, protocols.size(), "frames tshark saw");
        for (String p : protocols) {
            assertTrue(p.contains(":udp:infiniband"), () -> "not dissected as RoCEv2: " + p);
        }
        List<String> bad = run(base, "-Y", "_ws.malformed || _ws.expert.severity >= \"Error\"");
        assertTrue(bad.isEmpty(), () -> "tshark flags these frames:\n" + String.join("\n", bad));
    }

    private static List<String> run(List<String> base, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(base);
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("tshark", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TSHARK_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("tshark did not finish within " + TSHARK_TIMEOUT_S + " s: " + cmd);
            }
            String stderr = Files.readString(err);
            assertEquals(0, p.exitValue(), () -> "tshark failed: " + cmd + "\n" + stderr);
            return new String(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
