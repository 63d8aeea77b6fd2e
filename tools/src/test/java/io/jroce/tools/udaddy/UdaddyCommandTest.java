package io.jroce.tools.udaddy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.pcap.PcapReader;
import io.jroce.tools.CommandRunner;
import io.jroce.verbs.RdmaDevice;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jroce udaddy} server against {@code jroce udaddy} client over UDP on loopback, each with a
 * device of its own (127.0.0.1 and 127.0.0.2, one free UDP port for both): udaddy's exact lines and
 * exit statuses for the exchange, several connections, a client nobody answers, a request the
 * server refuses, and names that do not resolve.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UdaddyCommandTest {
    private static final String SERVER = "127.0.0.1";
    private static final String CLIENT = "127.0.0.2";
    private static final List<String> SERVER_LINES = List.of("udaddy: starting server", "receiving data transfers",
        "sending replies", "data transfers complete", "test complete", "return status 0");
    private static final List<String> CLIENT_LINES = List.of("udaddy: starting client", "udaddy: connecting",
        "initiating data transfers", "receiving data transfers", "data transfers complete", "test complete",
        "return status 0");
    /** BTH opcode of a UD SEND Only with Immediate (IBTA Vol. 1 9.2, table of opcodes). */
    private static final int UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;

    static int freeUdpPort() {
        while (true) {
            try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(SERVER), 0))) {
                int p = a.getLocalPort();
                try (DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(CLIENT), p))) {
                    return p;
                } catch (IOException taken) {
                    // try another
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A server's first line is printed before it opens its device: the client starts after it. */
    private static UdaddySide startServer(String... args) throws InterruptedException {
        UdaddySide server = UdaddySide.start(args);
        while (!server.out().contains("udaddy: starting server")) {
            Thread.sleep(5);
        }
        return server;
    }

    /**
     * udaddy's defaults: 10 messages of 100 bytes each way; the server's capture holds its 10 UD
     * SENDs with immediate data, each carrying the server's QPN to the client's, and the client's 10.
     */
    @Test
    void tenMessagesEachWayPrintUdaddysLinesAndExitZero(@TempDir Path dir) throws Exception {
        String udp = Integer.toString(freeUdpPort());
        Path pcap = dir.resolve("server.pcap");
        try (UdaddySide server = startServer("-b", SERVER, "--udp-port", udp, "--pcap", pcap.toString());
             UdaddySide client = UdaddySide.clientWhileUnreachable("-s", SERVER, "-b", CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            context = server.transcript() + "\n" + client.transcript();
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals(SERVER_LINES, server.outLines(), context);
            assertEquals("", client.err() + server.err(), context);
        }
        List<int[]> sends = udSends(pcap);
        assertEquals(20, sends.size(), "10 datagrams each way");
        int clientQpn = sends.get(0)[1];
        int serverQpn = sends.get(10)[1];
        for (int i = 0; i < 20; i++) {
            int[] s = sends.get(i);
            boolean fromClient = i < 10;
            assertEquals(fromClient ? serverQpn : clientQpn, s[0], "destination QP of datagram " + i);
            assertEquals(fromClient ? clientQpn : serverQpn, s[1], "immediate data: the sender's QPN, datagram " + i);
            assertEquals(100, s[2], "payload of datagram " + i);
        }
    }

    /** -c 3: three IDs, three SIDR exchanges, three QPs each way; -C 5 -S 1000. */
    @Test
    void threeConnectionsEachMoveTheirMessages() throws Exception {
        String udp = Integer.toString(freeUdpPort());
        try (UdaddySide server = startServer("-b", SERVER, "-c", "3", "-C", "5", "-S", "1000", "--udp-port", udp);
             UdaddySide client = UdaddySide.clientWhileUnreachable("-s", SERVER, "-b", CLIENT, "-c", "3", "-C", "5",
                 "-S", "1000", "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            context = server.transcript() + "\n" + client.transcript();
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals(SERVER_LINES, server.outLines(), context);
        }
    }

    /**
     * A server on udaddy's default address, the wildcard, with -S 0 (which makes udaddy's message
     * count 0): the SIDR exchange alone, and neither side prints a transfer line.
     */
    @Test
    void aWildcardServerResolvesWithoutMessagesForSizeZero() throws Exception {
        String udp = Integer.toString(freeUdpPort());
        try (UdaddySide server = startServer("--bind", SERVER, "-S", "0", "--udp-port", udp);
             UdaddySide client = UdaddySide.clientWhileUnreachable("-s", SERVER, "-b", CLIENT, "-S", "0",
                 "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(List.of("udaddy: starting client", "udaddy: connecting", "test complete", "return status 0"),
                client.outLines(), context);
            assertEquals(List.of("udaddy: starting server", "test complete", "return status 0"), server.outLines(),
                context);
        }
    }

    /**
     * A device on the server's address without a udaddy: its CM answers the SIDR_REQ with status 1
     * (nobody listens on the port), udaddy's client prints the event and returns its status.
     */
    @Test
    void aClientNobodyServesEndsWithTheUnreachableStatus() throws Exception {
        int udp = freeUdpPort();
        try (RdmaDevice bare = SoftRnic.builder().address(SERVER).udpPort(udp).open()) {
            CommandRunner r = CommandRunner.run("udaddy", "-s", SERVER, "-b", CLIENT, "-P", "udp", "-p", "0x111",
                "-f", "name", "--udp-port", Integer.toString(udp));
            assertEquals(1, r.status(), r.transcript());
            assertEquals("udaddy: starting client\nudaddy: connecting\n"
                + "udaddy: event: RDMA_CM_EVENT_UNREACHABLE, error: 1\ntest complete\nreturn status 1\n", r.out(),
                r.transcript());
            assertEquals("", r.err(), r.transcript());
        }
    }

    /**
     * A server whose message size exceeds its active MTU (4096) refuses the request: "failing
     * connection request", a SIDR_REP of status 2 (the client's UNREACHABLE, error 2), and it ends
     * with nothing to receive as udaddy does, status 0.
     */
    @Test
    void aServerThatCannotTakeTheMessageSizeRefusesTheRequest() throws Exception {
        String udp = Integer.toString(freeUdpPort());
        try (UdaddySide server = startServer("-b", SERVER, "-S", "5000", "--udp-port", udp);
             UdaddySide client = UdaddySide.clientWhileUnreachable("-s", SERVER, "-b", CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(2, client.await(), context);
            assertEquals(0, server.await(), context);
            context = server.transcript() + "\n" + client.transcript();
            assertEquals(List.of("udaddy: starting client", "udaddy: connecting",
                "udaddy: event: RDMA_CM_EVENT_UNREACHABLE, error: 2", "test complete", "return status 2"),
                client.outLines(), context);
            assertEquals(List.of("udaddy: starting server", "udaddy: message_size 5000 is larger than active mtu 4096",
                "udaddy: failing connection request", "receiving data transfers", "sending replies",
                "data transfers complete", "test complete", "return status 0"), server.outLines(), context);
        }
    }

    /** The client checks the size against its own device before it sends the SIDR_REQ: -EINVAL, exit 234. */
    @Test
    void aClientThatCannotTakeTheMessageSizeReturnsMinusEinval() throws Exception {
        int udp = freeUdpPort();
        CommandRunner r = CommandRunner.run("udaddy", "-s", SERVER, "-b", CLIENT, "-S", "5000", "--udp-port",
            Integer.toString(udp));
        assertEquals(234, r.status(), r.transcript());
        assertEquals("udaddy: starting client\nudaddy: connecting\n"
            + "udaddy: message_size 5000 is larger than active mtu 4096\ntest complete\nreturn status -22\n", r.out(),
            r.transcript());
    }

    /** -f ip takes literals only: a name is getaddrinfo's EAI_NONAME, returned as -2 (exit 254). */
    @Test
    void aNameWithNumericAddressesIsNotResolved() throws Exception {
        CommandRunner client = CommandRunner.run("udaddy", "-f", "ip", "-s", "localhost");
        assertEquals(254, client.status(), client.transcript());
        assertEquals("udaddy: starting client\n"
            + "udaddy: getaddrinfo error: Name or service not known\ntest complete\nreturn status -2\n", client.out(),
            client.transcript());
        CommandRunner server = CommandRunner.run("udaddy", "-f", "ipv6", "-b", "localhost");
        assertEquals(254, server.status(), server.transcript());
        assertEquals("udaddy: starting server\n"
            + "udaddy: getrdmaaddr error: Name or service not known\ntest complete\nreturn status -2\n", server.out(),
            server.transcript());
    }

    /**
     * The UD SENDs with immediate data in a pcap of jroce's: for each, the BTH's destination QP, the
     * immediate data and the payload length. The RoCE packet follows the IP and 8-byte UDP headers;
     * the BTH (12 bytes), DETH (8) and ImmDt (4) precede the payload, the pad and the 4-byte ICRC follow.
     */
    static List<int[]> udSends(Path pcap) throws IOException {
        List<int[]> sends = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pcap)) {
            for (PcapReader.Record r : PcapReader.read(in)) {
                ByteBuffer b = ByteBuffer.wrap(r.data()).order(ByteOrder.BIG_ENDIAN);
                int ip = r.linkType() == PcapReader.LINKTYPE_ETHERNET ? 14 : 0;
                int bth = ip + ((b.get(ip) & 0xF0) == 0x40 ? (b.get(ip) & 0x0F) * 4 : 40) + 8;
                if ((b.get(bth) & 0xFF) == UD_SEND_ONLY_WITH_IMMEDIATE) {
                    int pad = b.get(bth + 1) >> 4 & 3;
                    int payload = r.data().length - (bth + 12 + 8 + 4) - pad - 4;
                    sends.add(new int[] {b.getInt(bth + 4) & 0xFF_FFFF, b.getInt(bth + 12 + 8), payload});
                }
            }
        }
        return sends;
    }

    @Test
    void helpDescribesTheTwin() throws Exception {
        CommandRunner r = CommandRunner.run("help", "udaddy");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("usage: jroce udaddy "), r.out());
    }
}
