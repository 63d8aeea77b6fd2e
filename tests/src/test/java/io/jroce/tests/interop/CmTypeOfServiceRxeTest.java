package io.jroce.tests.interop;

import io.jroce.testcontainers.GuestResult;
import io.jroce.testcontainers.RxePeer;
import io.jroce.testcontainers.RxeNetwork;
import io.jroce.testcontainers.RequiresRxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.PcapReader;

import java.io.InputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * rdma_set_option TOS and ACK_TIMEOUT against the kernel, seen on the wire (the guest's tap): jroce's
 * {@code ucmatose -t 0xb8 -a 14} connects twice to librdmacm's ucmatose on rxe, whose REQs carry
 * traffic class 0xB8 and local ACK timeout 16 ({@code cm_ack_timeout(15, 13)}), and rxe's QPs then
 * send every packet with IP TOS 0xB8: the passive kernel took the REQ's traffic class for its QPs
 * ({@code cm_format_path_from_req}). The other way, rxe's {@code ucmatose -t 0x28} client to a jroce
 * server: its REQs carry 0x28, rxe's packets leave with TOS 0x28, and jroce's server runs its
 * exchange. jroce's own packets leave with TOS 0 (a Java datagram socket cannot mark one datagram;
 * the ICRC masks the TOS, so rxe takes them).
 */
@RequiresRxePeer
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CmTypeOfServiceRxeTest {
    private static final Duration BOOT = Duration.ofMinutes(3);
    private static final Duration RUN = Duration.ofMinutes(3);
    private static final int JROCE_TOS = 0xB8;
    private static final int RXE_TOS = 0x28;
    private static final List<String> CLIENT_LINES = List.of("cmatose: starting client", "cmatose: connecting",
        "receiving data transfers", "sending replies", "data transfers complete", "test complete", "return status 0");
    private static final List<String> SERVER_LINES = List.of("cmatose: starting server", "initiating data transfers",
        "completing sends", "receiving data transfers", "data transfers complete", "cmatose: disconnecting",
        "disconnected", "test complete", "return status 0");
    /** Ethernet, IPv4 without options, UDP: where the BTH starts on the tap. */
    private static final int ROCE = 14 + 20 + 8;
    private static final int MAD = ROCE + 12 + 8;
    private static final int ATTR_REQ = 0x0010;
    /** The REQ's primary path (CmReqFlyweight.PRIMARY_PATH_OFFSET from the MAD) and its fields in it. */
    private static final int PATH = MAD + 76;

    @Test
    void typeOfServiceReachesTheReqsAndRxesPacketsBothWays() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        Path pcap = Path.of("/tmp/cm-tos-rxe.pcap");
        try (RxeNetwork network = RxeNetwork.builder().create()) {
            String host = network.hostIpv4();
            String script = "ucmatose -c 2 & s=$!;"
                + " until rdma res show cm_id 2>/dev/null | grep -q LISTEN; do sleep 0.1; done; echo CMATOSE-LISTEN''ING;"
                + " wait $s && retry-refused ucmatose -s " + host + " -c 2 -t " + RXE_TOS;
            try (RxePeer guest = RxePeer.builder().name("rxe-cm-tos").network(network).command(script)
                     .guestTimeout(Duration.ofMinutes(8)).start()) {
                RoceCapture capture = RoceCapture.onGuestTap(guest, pcap, BOOT);
                guest.awaitOutput("CMATOSE-LISTENING", BOOT);
                JroceCommand.Result client = JroceCommand.start(pool, "ucmatose", "-s", guest.ipv4(), "-c", "2",
                    "-t", "0xb8", "-a", "14").await(RUN);
                String context = client.transcript() + "\n--- rxe so far:\n" + String.join("\n", guest.consoleLines());
                assertEquals(0, client.status(), context);
                assertEquals(CLIENT_LINES, client.lines(), context);

                JroceCommand.Result server = JroceCommand.start(pool, "ucmatose", "-b", host, "-c", "2", "-a", "17")
                    .await(RUN);
                GuestResult g = guest.awaitExit(RUN);
                capture.stop();
                context = server.transcript() + "\n--- rxe:\n" + g.console();
                assertEquals(0, server.status(), context);
                assertEquals(SERVER_LINES, server.lines(), context);
                assertEquals(0, g.exitStatus(), context);
                capture.check();

                int hostIp = ipv4(host);
                int guestIp = ipv4(guest.ipv4());
                List<byte[]> frames = frames(pcap);
                // the guest's REQs begin the second exchange
                int second = -1;
                TreeSet<String> jroceReqs = new TreeSet<>();
                TreeSet<String> rxeReqs = new TreeSet<>();
                for (int i = 0; i < frames.size(); i++) {
                    byte[] f = frames.get(i);
                    if (isReq(f)) {
                        String fields = "tclass 0x" + Integer.toHexString(f[PATH + 40] & 0xFF) + ", local ACK timeout "
                            + ((f[PATH + 43] & 0xFF) >>> 3);
                        if (source(f) == guestIp) {
                            rxeReqs.add(fields);
                            second = second < 0 ? i : second;
                        } else {
                            jroceReqs.add(fields);
                        }
                    }
                }
                assertEquals(new TreeSet<>(List.of("tclass 0xb8, local ACK timeout 16")), jroceReqs, "jroce's REQs");
                assertEquals(RXE_TOS, rxeReqs.isEmpty() ? -1 : Integer.parseInt(rxeReqs.first().substring(9, 11), 16),
                    "rxe's REQs: " + rxeReqs);
                assertEquals(1, rxeReqs.size(), "rxe's REQs: " + rxeReqs);
                assertTrue(second > 0, "no REQ from rxe");

                // TOS of every packet but the CM's (QP 1), by sender and exchange
                TreeSet<String> tos = new TreeSet<>();
                for (int i = 0; i < frames.size(); i++) {
                    byte[] f = frames.get(i);
                    if (destQp(f) == 1) {
                        continue;
                    }
                    String who = source(f) == guestIp ? "rxe" : source(f) == hostIp ? "jroce" : "other";
                    tos.add((i < second ? "1 " : "2 ") + who + " 0x" + Integer.toHexString(f[15] & 0xFF));
                }
                assertEquals(new TreeSet<>(List.of("1 jroce 0x0", "1 rxe 0xb8", "2 jroce 0x0", "2 rxe 0x28")), tos,
                    "IP TOS of the QPs' packets (exchange, sender, TOS)");
                assertFalse(frames.isEmpty());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static int ipv4(String address) throws Exception {
        return ByteBuffer.wrap(InetAddress.getByName(address).getAddress()).getInt();
    }

    private static List<byte[]> frames(Path pcap) throws Exception {
        List<byte[]> frames = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pcap)) {
            for (PcapReader.Record r : PcapReader.read(in)) {
                byte[] d = r.data();
                // IPv4 (ethertype 0x0800, IHL 5) UDP to 4791 only
                if (d.length > MAD && (d[12] & 0xFF) == 0x08 && d[13] == 0 && (d[14] & 0xFF) == 0x45) {
                    frames.add(d);
                }
            }
        }
        return frames;
    }

    private static int source(byte[] f) {
        return ByteBuffer.wrap(f, 26, 4).getInt();
    }

    private static int destQp(byte[] f) {
        return ByteBuffer.wrap(f, ROCE + 4, 4).getInt() & 0xFFFFFF;
    }

    private static boolean isReq(byte[] f) {
        return destQp(f) == 1 && f.length >= MAD + 256 && (ByteBuffer.wrap(f, MAD + 16, 2).getShort() & 0xFFFF) == ATTR_REQ;
    }
}
