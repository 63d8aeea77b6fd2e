package io.jroce.tests.interop;

import io.jroce.testcontainers.RxePeer;
import io.jroce.stack.icrc.Ipv4IdRecovery;
import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.testsupport.Tshark;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    private final Path file;
    private final Tshark tshark;
    private final Process process;
    private final CountDownLatch started;

    private RoceCapture(Path file, Tshark tshark, Process process, CountDownLatch started) {
        this.file = file;
        this.tshark = tshark;
        this.process = process;
        this.started = started;
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
        Optional<Tshark> installed = Tshark.ifInstalled(); // CI never passes without the check (.ci/run installs tshark)
        if (installed.isEmpty()) {
            LOG.warn("tshark is not installed: no capture of the RoCE traffic (apt-get install tshark)");
            return new RoceCapture(file, null, null, new CountDownLatch(0));
        }
        Files.deleteIfExists(file);
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(installed.get().executable().toString(), "-n", "-q", "-i", iface, "-f", "udp port 4791",
            "-F", "pcap", "-w", file.toString()));
        Process p = new ProcessBuilder(command).start();
        CountDownLatch capturing = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Thread errors = new Thread(() -> {
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    LOG.info("tshark: {}", line);
                    if (line.contains("Capturing on")) {
                        capturing.countDown();
                    }
                    if (line.contains("Capture started")) {
                        started.countDown();
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
        return new RoceCapture(file, installed.get(), p, started);
    }

    /**
     * Waits until dumpcap has the interface open (tshark 4.0's "Capture started." message, which
     * comes after "Capturing on"): a step of a few milliseconds started before it goes uncaptured.
     */
    RoceCapture awaitCapturing() throws InterruptedException {
        assertTrue(started.await(30, TimeUnit.SECONDS), "tshark never said \"Capture started\" for " + file);
        return this;
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
        tshark.assertDissectedAsRoce(file, frames);
        // A SEND whose payload happens to start like an IPoIB header (2 bytes that name a known
        // ethertype, then 2 zero bytes: e.g. a 1-byte payload 0x60 and its pad) is handed by tshark
        // 4.0's InfiniBand dissector to that ethertype's dissector, which finds nothing and calls the
        // frame malformed. That is a guess about the payload, not a fault of the RoCE headers
        // (the ICRC check above covers the frame): such frames are logged, not failed.
        List<String> malformed = tshark.fields(file, "_ws.malformed", "frame.number", "frame.protocols");
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
        List<String> expert = tshark.fields(file, "_ws.expert", "frame.number", "ipv6.src", "_ws.expert.message");
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

    /**
     * Every frame: Ethernet, IPv4 or IPv6, UDP, a valid ICRC ({@link IcrcCheck}); for IPv4, the ID
     * that {@link Ipv4IdRecovery} finds from the ICRC is the one in the header. Returns the number of frames.
     */
    private int verifyIcrcs() throws IOException {
        List<RoceFrame> frames = IcrcCheck.readVerified(file);
        Ipv4IdRecovery recovery = new Ipv4IdRecovery();
        for (RoceFrame f : frames) {
            if (!f.ipv6()) {
                assertEquals(f.ipId(), recovery.recoverId(f.srcIpv4(), f.dstIpv4(), f.srcPort(), f.dstPort(),
                    new UnsafeBuffer(f.roce()), 0, f.roce().length, f.icrc()),
                    file + " frame " + f.index() + ": Ipv4IdRecovery finds another IP ID");
            }
        }
        return frames.size();
    }
}
