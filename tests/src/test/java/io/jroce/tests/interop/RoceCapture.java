package io.jroce.tests.interop;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.pcap.PcapReader;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tshark capture of RoCEv2 (UDP port 4791) on a guest's tap, where jroce's GSO datagrams are
 * already cut into packets ({@link #onGuestTap}), and its check:
 * every packet dissects as InfiniBand over UDP with nothing malformed and no expert finding except
 * the zero UDP checksum rxe puts in IPv6 packets; every ICRC verifies under the packet's own IP
 * and UDP headers (in the capture the IPv4 ID is visible; {@link Ipv4IdRecovery}, which jroce uses
 * when it is not, must find the same ID). Without tshark (apt-get install tshark) nothing is
 * captured and {@link #check()} says so in the log only (with {@code CI=true}, starting fails).
 */
final class RoceCapture {
    private static final Logger LOG = LoggerFactory.getLogger(RoceCapture.class);
    private static final long TSHARK_TIMEOUT_S = 300;

    private final Path file;
    private final Process process;

    private RoceCapture(Path file, Process process) {
        this.file = file;
        this.process = process;
    }

    /**
     * Captures on {@code iface} into {@code file} (pcap format) in the network namespace of process
     * {@code pid} (nsenter, as root), once tshark captures:
     * e.g. a peer's {@code tap0} ({@link RxePeer#containerPid()}), where the kernel has already cut
     * jroce's UDP GSO datagrams into the packets the guest receives. On the host's bridge a GSO
     * datagram is still one frame of up to 64 RoCE packets, which this check cannot take apart.
     */
    static RoceCapture startInNetns(long pid, String iface, Path file) throws IOException, InterruptedException {
        return start(List.of("nsenter", "-t", Long.toString(pid), "-n"), iface, file);
    }

    /**
     * Captures on {@code peer}'s {@code tap0} ({@link #startInNetns}), once its entrypoint has set the
     * tap up (the "guest:" line it prints before starting QEMU).
     */
    static RoceCapture onGuestTap(RxePeer peer, Path file, java.time.Duration timeout)
            throws IOException, InterruptedException {
        peer.awaitOutput("guest: ", timeout);
        return startInNetns(peer.containerPid(), "tap0", file);
    }

    private static RoceCapture start(List<String> prefix, String iface, Path file) throws IOException, InterruptedException {
        Path tshark = tshark();
        if (tshark == null) {
            if ("true".equals(System.getenv("CI"))) { // CI never passes without the check (.ci/run installs tshark)
                throw new AssertionError("tshark is not installed: cannot check the RoCE capture (apt-get install tshark)");
            }
            LOG.warn("tshark is not installed: no capture of the RoCE traffic (apt-get install tshark)");
            return new RoceCapture(file, null);
        }
        Files.deleteIfExists(file);
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(tshark.toString(), "-n", "-q", "-i", iface, "-f", "udp port 4791",
            "-F", "pcap", "-w", file.toString()));
        Process p = new ProcessBuilder(command).start();
        CountDownLatch capturing = new CountDownLatch(1);
        Thread errors = new Thread(() -> {
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    LOG.info("tshark: {}", line);
                    if (line.contains("Capturing on")) {
                        capturing.countDown();
                    }
                }
            } catch (IOException e) {
                LOG.debug("tshark's stderr", e);
            }
        }, "tshark-stderr");
        errors.setDaemon(true);
        errors.start();
        if (!capturing.await(30, TimeUnit.SECONDS)) {
            p.destroy();
            throw new AssertionError("tshark did not start capturing on " + iface + " within 30 s");
        }
        return new RoceCapture(file, p);
    }

    /** Stops tshark (SIGTERM: it finishes the file). */
    void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        Thread.sleep(500); // the last packets reach the capture
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        LOG.info("capture: {}", file);
    }

    /** Checks the capture (see the class comment). */
    void check() throws IOException, InterruptedException {
        if (process == null) {
            LOG.warn("the RoCE traffic was not captured (no tshark): not checked");
            return;
        }
        int frames = verifyIcrcs();
        assertTrue(frames > 0, "no RoCE packet in " + file);
        List<String> base = List.of(tshark().toString(), "-n", "-r", file.toString(),
            // tshark 4.0's RPC-over-RDMA heuristic reads payload bytes 12..15 before checking the
            // length: it marks every SEND Only under 16 bytes of payload malformed, whoever sent it.
            "--disable-heuristic", "rpcrdma_infiniband");
        List<String> protocols = run(base, "-T", "fields", "-e", "frame.number", "-e", "frame.protocols");
        assertEquals(frames, protocols.size(), "frames tshark saw in " + file);
        for (String p : protocols) {
            assertTrue(p.contains(":udp:infiniband"), () -> file + ": not dissected as RoCEv2: " + p);
        }
        // A SEND whose payload happens to start like an IPoIB header (2 bytes that name a known
        // ethertype, then 2 zero bytes: e.g. a 1-byte payload 0x60 and its pad) is handed by tshark
        // 4.0's InfiniBand dissector to that ethertype's dissector, which finds nothing and calls the
        // frame malformed. That is a guess about the payload, not a fault of the RoCE headers
        // (the ICRC check above covers the frame): such frames are logged, not failed.
        List<String> malformed = run(base, "-Y", "_ws.malformed", "-T", "fields", "-e", "frame.number",
            "-e", "frame.protocols");
        List<String> payloadGuesses = malformed.stream().filter(l -> l.contains(":udp:infiniband:ethertype")).toList();
        List<String> badMalformed = malformed.stream().filter(l -> !payloadGuesses.contains(l)).toList();
        assertTrue(badMalformed.isEmpty(), () -> file + ": malformed frames (number, protocols):\n"
            + String.join("\n", badMalformed));
        if (!payloadGuesses.isEmpty()) {
            LOG.info("capture {}: tshark guessed these SEND payloads as IPoIB and called them malformed "
                + "(a dissector guess, not a header fault): {}", file, payloadGuesses);
        }
        java.util.Set<String> guessed = payloadGuesses.stream().map(l -> l.split("\t")[0])
            .collect(java.util.stream.Collectors.toSet());
        List<String> expert = run(base, "-Y", "_ws.expert", "-T", "fields", "-e", "frame.number", "-e", "ipv6.src",
            "-e", "_ws.expert.message");
        List<String> unexpected = expert.stream()
            .filter(l -> !guessed.contains(l.split("\t")[0]))
            .filter(l -> !isIpv6ZeroUdpChecksum(l.split("\t", -1)))
            .toList();
        assertTrue(unexpected.isEmpty(), () -> file + ": expert findings other than IPv6's zero UDP checksum "
            + "(frame, IPv6 source, messages):\n" + String.join("\n", unexpected));
        LOG.info("capture {}: {} RoCE frames, all RoCEv2 to tshark, ICRCs valid; frames noted for IPv6's zero UDP checksum: {}",
            file, frames, expert.stream().filter(l -> isIpv6ZeroUdpChecksum(l.split("\t", -1))).count());
    }

    /** Fields frame, ipv6.src, messages: an IPv6 frame whose only expert messages are about a zero UDP checksum. */
    private static boolean isIpv6ZeroUdpChecksum(String[] f) {
        if (f.length < 3 || f[1].isEmpty()) {
            return false;
        }
        for (String message : f[2].split(",")) {
            if (!message.toLowerCase(java.util.Locale.ROOT).matches(".*checksum.*(zero|0x0000|illegal|missing).*"
                + "|.*(zero|illegal|missing).*checksum.*")) {
                return false;
            }
        }
        return true;
    }

    /** Every frame: Ethernet, IPv4 or IPv6, UDP to or from 4791, a valid ICRC. Returns the number of frames. */
    private int verifyIcrcs() throws IOException {
        List<PcapReader.Record> records;
        try (InputStream in = Files.newInputStream(file)) {
            records = PcapReader.read(in);
        }
        IcrcCalculator icrc = new IcrcCalculator();
        Ipv4IdRecovery recovery = new Ipv4IdRecovery();
        for (PcapReader.Record r : records) {
            String where = file + " frame " + r.index();
            assertEquals(PcapReader.LINKTYPE_ETHERNET, r.linkType(), where);
            ByteBuffer b = ByteBuffer.wrap(r.data());
            int etherType = b.getShort(12) & 0xFFFF;
            int udp;
            int expected;
            int length;
            UnsafeBuffer frame = new UnsafeBuffer(r.data());
            if (etherType == 0x0800) {
                int ihl = (b.get(14) & 0x0F) * 4;
                udp = 14 + ihl;
                length = (b.getShort(udp + 4) & 0xFFFF) - 8 - IcrcCalculator.ICRC_LENGTH;
                int src = b.getInt(26);
                int dst = b.getInt(30);
                int ipId = b.getShort(18) & 0xFFFF;
                int flags = b.getShort(20) & 0xFFFF;
                int sport = b.getShort(udp) & 0xFFFF;
                int dport = b.getShort(udp + 2) & 0xFFFF;
                expected = icrc.computeIpv4(src, dst, ipId, flags, sport, dport, frame, udp + 8, length);
                int onWire = IcrcCalculator.readIcrc(frame, udp + 8 + length);
                if (expected == onWire) {
                    assertEquals(ipId, recovery.recoverId(src, dst, sport, dport, frame, udp + 8, length, onWire),
                        where + ": Ipv4IdRecovery finds another IP ID");
                }
            } else {
                assertEquals(0x86DD, etherType, where + ": neither IPv4 nor IPv6");
                udp = 14 + 40;
                assertEquals(17, b.get(20), where + ": next header is not UDP");
                length = (b.getShort(udp + 4) & 0xFFFF) - 8 - IcrcCalculator.ICRC_LENGTH;
                byte[] src = Arrays.copyOfRange(r.data(), 22, 38);
                byte[] dst = Arrays.copyOfRange(r.data(), 38, 54);
                expected = icrc.computeIpv6(src, dst, b.getShort(udp) & 0xFFFF, b.getShort(udp + 2) & 0xFFFF,
                    frame, udp + 8, length);
            }
            assertTrue(udp + 8 + length + IcrcCalculator.ICRC_LENGTH <= r.data().length, where + ": truncated");
            assertEquals(String.format("%08x", expected),
                String.format("%08x", IcrcCalculator.readIcrc(frame, udp + 8 + length)), where + ": ICRC does not verify");
        }
        return records.size();
    }

    private static Path tshark() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "tshark"))) {
                return Path.of(dir, "tshark");
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/tshark")) ? Path.of("/usr/bin/tshark") : null;
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
