package io.jroce.tools.cmatose;

import static io.jroce.tools.cmcommon.TwinAddresses.CLIENT;
import static io.jroce.tools.cmcommon.TwinAddresses.PROBE;
import static io.jroce.tools.cmcommon.TwinAddresses.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.cmcommon.ListenProbe;
import io.jroce.tools.cmcommon.TwinAddresses;
import io.jroce.tools.cmcommon.TwinSide;
import io.jroce.stack.mad.CmPathFlyweight;
import io.jroce.stack.mad.CmReqFlyweight;
import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.pcap.RoceFrame;
import org.agrona.concurrent.UnsafeBuffer;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jroce ucmatose} server against {@code jroce ucmatose} client over UDP on loopback, each
 * with a device of its own (127.0.0.1 and 127.0.0.2, one free UDP port): cmatose's exact lines and
 * exit statuses for several connections in both port spaces, no messages, a refused connection and
 * bad options.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UcmatoseCommandTest {
    static final List<String> SERVER_LINES = List.of("cmatose: starting server", "initiating data transfers",
        "completing sends", "receiving data transfers", "data transfers complete", "cmatose: disconnecting",
        "disconnected", "test complete", "return status 0");
    static final List<String> CLIENT_LINES = List.of("cmatose: starting client", "cmatose: connecting",
        "receiving data transfers", "sending replies", "data transfers complete", "test complete", "return status 0");

    private static void awaitListening(TwinSide server, String udp, String port, String ps) throws Exception {
        ListenProbe.awaitListening(server, "cmatose: starting server", udp, port, ps);
    }

    private static TwinSide awaitListeningThenStart(TwinSide server, String udp, String... line) throws Exception {
        awaitListening(server, udp, CmatoseOptions.DEFAULT_PORT, "tcp");
        return TwinSide.start(line);
    }

    private static String[] line(String... args) {
        List<String> l = new ArrayList<>(List.of("ucmatose"));
        l.addAll(List.of(args));
        return l.toArray(String[]::new);
    }

    /**
     * Both sides print cmatose's lines and exit 0, and the server's capture holds what cmatose moves:
     * on each of the -c connections (-c QPs each way) -C SENDs of -S bytes from the server, then as
     * many back from the client.
     */
    @ParameterizedTest(name = "-P {0} -c {1} -C {2} -S {3}")
    @CsvSource({"tcp, 1, 10, 100", "tcp, 4, 10, 100", "ib, 4, 10, 100", "tcp, 3, 50, 4096", "ib, 2, 1, 1"})
    void connectionsExchangeTheirMessagesAndBothSidesPrintCmatosesLines(String ps, int c, int count, int size,
                                                                     @TempDir Path dir) throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        Path pcap = dir.resolve("server.pcap");
        String[] common = {"-P", ps, "-c", Integer.toString(c), "-C", Integer.toString(count), "-S",
            Integer.toString(size), "--udp-port", udp};
        List<String> serverArgs = new ArrayList<>(List.of("-b", SERVER, "--bind", SERVER, "--bind", PROBE, "--pcap",
            pcap.toString()));
        serverArgs.addAll(List.of(common));
        List<String> clientArgs = new ArrayList<>(List.of("-s", SERVER, "-b", CLIENT));
        clientArgs.addAll(List.of(common));
        try (TwinSide server = TwinSide.start(line(serverArgs.toArray(String[]::new)))) {
            awaitListening(server, udp, CmatoseOptions.DEFAULT_PORT, ps);
            try (TwinSide client = TwinSide.start(line(clientArgs.toArray(String[]::new)))) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            context = server.transcript() + "\n" + client.transcript();
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals(SERVER_LINES, server.outLines(), context);
            assertEquals("", client.err(), context);
            assertEquals("", server.err(), context);
            }
        }
        List<RoceFrame> frames = RoceFrame.read(pcap);
        for (String from : List.of(SERVER, CLIENT)) {
            int source = ByteBuffer.wrap(InetAddress.getByName(from).getAddress()).getInt();
            List<RoceFrame> sends = frames.stream().filter(f -> f.srcIpv4() == source && isRcSend(f.opcode())).toList();
            assertEquals((long) c * count * size, sends.stream().mapToLong(UcmatoseCommandTest::payload).sum(), from);
            assertEquals((long) c * count, sends.stream().filter(f -> f.opcode() == SEND_LAST
                || f.opcode() == SEND_ONLY).count(), from);
            assertEquals(c, sends.stream().map(RoceFrame::destQp).distinct().count(), from);
        }
    }

    /**
     * -t and -a (rdma_set_option TOS and ACK_TIMEOUT): the client's REQs carry the type of service
     * as their path's traffic class and, the path's packet life time being -a - 1, the local ACK
     * timeout {@code cm_ack_timeout(15, 13)} = 16; the server sets its own ACK timeout on its QPs;
     * both run cmatose's exchange as without them, with nothing on stderr.
     */
    @Test
    void typeOfServiceAndAckTimeoutReachTheReqs(@TempDir Path dir) throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        Path pcap = dir.resolve("server.pcap");
        try (TwinSide server = TwinSide.start(line("-b", SERVER, "-c", "2", "-a", "17", "--bind", SERVER, "--bind",
                 PROBE, "--udp-port", udp, "--pcap", pcap.toString()));
             TwinSide client = awaitListeningThenStart(server, udp, line("-s", SERVER, "-b", CLIENT, "-c", "2",
                 "-t", "0xb8", "-a", "14", "--udp-port", udp))) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals(SERVER_LINES, server.outLines(), context);
            assertEquals("", client.err(), context);
            assertEquals("", server.err(), context);
        }
        List<CmPathFlyweight> paths = reqPathsTo(pcap, SERVER);
        assertTrue(paths.size() >= 2, "one REQ per connection (a retransmission repeats one): " + paths.size());
        for (CmPathFlyweight path : paths) {
            assertEquals(0xB8, path.trafficClass(), "the REQ's traffic class");
            assertEquals(16, path.localAckTimeout(), "the REQ's local ACK timeout");
        }
    }

    /**
     * -a beyond the 5-bit field: jroce's rdma_set_option refuses it (EINVAL; the kernel would take the
     * byte), which cmatose reports with perror and goes on: the REQ has the route's own ACK timeout, 19.
     */
    @Test
    void anAckTimeoutBeyond31IsPerrorsInvalidArgumentAndTheRunGoesOn(@TempDir Path dir) throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        Path pcap = dir.resolve("server.pcap");
        try (TwinSide server = TwinSide.start(line("-b", SERVER, "--bind", SERVER, "--bind", PROBE, "--udp-port", udp,
                 "--pcap", pcap.toString()));
             TwinSide client = awaitListeningThenStart(server, udp, line("-s", SERVER, "-b", CLIENT, "-a", "32",
                 "--udp-port", udp))) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals("cmatose: set ack timeout option failed: Invalid argument\n", client.err(), context);
        }
        List<CmPathFlyweight> paths = reqPathsTo(pcap, SERVER);
        assertTrue(paths.size() >= 1, "the REQ");
        for (CmPathFlyweight path : paths) {
            assertEquals(0, path.trafficClass());
            assertEquals(19, path.localAckTimeout());
        }
    }

    /** The primary paths of the REQs to {@code to} in the capture (not the listen probe's, to the other address). */
    private static List<CmPathFlyweight> reqPathsTo(Path pcap, String to) throws Exception {
        int destination = ByteBuffer.wrap(InetAddress.getByName(to).getAddress()).getInt();
        List<CmPathFlyweight> paths = new ArrayList<>();
        for (RoceFrame f : RoceFrame.read(pcap)) {
            UnsafeBuffer b = new UnsafeBuffer(f.roce());
            int mad = 12 + 8; // BTH, DETH
            if (f.dstIpv4() == destination && f.destQp() == 1 && f.roce().length >= mad + 256
                && new MadHeaderFlyweight().wrap(b, mad).attributeId() == MadHeaderFlyweight.ATTR_REQ) {
                CmPathFlyweight path = new CmPathFlyweight();
                new CmReqFlyweight().wrap(b, mad).primaryPath(path);
                paths.add(path);
            }
        }
        return paths;
    }

    private static final int SEND_FIRST = 0x00;
    private static final int SEND_LAST = 0x02;
    private static final int SEND_ONLY = 0x04;

    private static boolean isRcSend(int opcode) {
        return opcode >= SEND_FIRST && opcode <= SEND_ONLY;
    }

    /** The payload of an RC SEND packet: after the 12-byte BTH, without the pad the BTH counts. */
    private static long payload(RoceFrame f) {
        int pad = (f.roce()[1] >> 4) & 0x3;
        return f.roce().length - 12 - pad;
    }

    /** -S 0: create_message sets the count to 0, so neither side moves data nor prints the transfer lines. */
    @Test
    void sizeZeroConnectsAndDisconnectsWithoutMessages() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start(line("-b", SERVER, "-c", "2", "-S", "0", "--bind", SERVER, "--bind", PROBE,
                 "--udp-port", udp));
             TwinSide client = awaitListeningThenStart(server, udp, line("-s", SERVER, "-b", CLIENT, "-c", "2", "-S", "0",
                 "--udp-port", udp))) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(List.of("cmatose: starting client", "cmatose: connecting", "test complete", "return status 0"),
                client.outLines(), context);
            assertEquals(List.of("cmatose: starting server", "cmatose: disconnecting", "disconnected", "test complete",
                "return status 0"), server.outLines(), context);
        }
    }

    /**
     * A client to a port nobody listens on gets REJ 8 from the server's device at once: cmatose's
     * event line and its return status 8, not a hang. The server on the default port then serves
     * a client and ends.
     */
    @Test
    void aPortNobodyListensOnIsRejectedWithStatus8() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start(line("-b", SERVER, "--bind", SERVER, "--bind", PROBE, "--udp-port", udp))) {
            awaitListening(server, udp, CmatoseOptions.DEFAULT_PORT, "tcp");
            try (TwinSide r = TwinSide.start(line("-s", SERVER, "-b", CLIENT, "-p", "7472", "-c", "3", "--udp-port",
                udp))) {
                String context = r.transcript() + "\n" + server.transcript();
                assertEquals(8, r.await(), context);
                assertEquals(List.of("cmatose: starting client", "cmatose: connecting",
                    "cmatose: event: RDMA_CM_EVENT_REJECTED, error: 8", "test complete", "return status 8"),
                    r.outLines(), context);
                assertEquals("", r.err(), context);
            }
            try (TwinSide served = TwinSide.start(line("-s", SERVER, "-b", CLIENT, "--udp-port", udp))) {
                assertEquals(0, served.await(), served.transcript() + "\n" + server.transcript());
                assertEquals(0, server.await(), served.transcript() + "\n" + server.transcript());
                assertEquals(SERVER_LINES, server.outLines(), server.transcript());
            }
        }
    }

    /**
     * Without -b the server binds the wildcard, as cmatose does: its one listener takes a connection
     * to any address of its device, here the second. The client (one connection, so one REQ a run)
     * is run again while the server's device refuses it with REJ 8, before the listener is up.
     */
    @Test
    void aServerWithoutBindListensOnTheWildcard() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start(line("-p", "7473", "-C", "2", "-S", "10", "--bind", SERVER, "--bind",
                 PROBE, "--udp-port", udp));
             TwinSide client = TwinSide.startAgainWhile(c -> c.out().contains("RDMA_CM_EVENT_REJECTED, error: 8"),
                 line("-s", PROBE, "-b", CLIENT, "-p", "7473", "-C", "2", "-S", "10", "--udp-port", udp))) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(CLIENT_LINES, client.outLines(), context);
            assertEquals(SERVER_LINES, server.outLines(), context);
            assertEquals("", server.err(), context);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-x", "-p", "-z1"})
    void anUnknownOptionOrAMissingValuePrintsCmatosesUsageAndExitsWith1(String arg) throws Exception {
        CommandRunner r = CommandRunner.run("ucmatose", arg);
        assertEquals(1, r.status(), r.transcript());
        assertEquals(CmatoseUsage.CMATOSE, r.out(), r.transcript());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"-m||rdma_migrate_id", "-f|gid|AF_IB"})
    void optionsJroceCannotHonourAreRefusedWithTheReason(String option, String value, String reason) throws Exception {
        CommandRunner r = value == null ? CommandRunner.run("ucmatose", option)
            : CommandRunner.run("ucmatose", option, value);
        assertEquals(ExitStatus.USAGE, r.status(), r.transcript());
        assertTrue(r.err().contains("not supported") && r.err().contains(reason), r.transcript());
        assertEquals("", r.out(), r.transcript());
    }

    @Test
    void unknownFormatsWarnAsCmatoseDoes() throws Exception {
        CmatoseOptions o = parse("-P", "udp", "-f", "hex", "-s", "h", "-c", "3x", "-C", " 7", "-S", "12", "-p", "9");
        assertEquals(io.jroce.verbs.cm.PortSpace.TCP, o.portSpace());
        assertEquals(3, o.connections());
        assertEquals(7, o.count());
        assertEquals(12, o.size());
        assertEquals("9", o.port());
        assertEquals("h", o.server());
        CmatoseOptions ib = parse("-P", "IBx", "-f", "ipv6");
        assertEquals(io.jroce.verbs.cm.PortSpace.IB, ib.portSpace());
        assertTrue(ib.numericHost());
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        CmatoseOptions.parse(List.of("-P", "udp", "-f", "hex"), new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
            new java.io.PrintStream(err, true));
        assertEquals("Warning: unknown port space format\nWarning: unknown address format\n", err.toString());
    }

    /** -f ip takes literals only: a name fails getaddrinfo with EAI_NONAME, return status -2. */
    @Test
    void aNameWithNumericHostFailsAsGetaddrinfoDoes() throws Exception {
        CommandRunner r = CommandRunner.run("ucmatose", "-f", "ip", "-s", "localhost");
        assertEquals(254, r.status(), r.transcript());
        assertEquals(List.of("cmatose: starting client", "cmatose: getaddrinfo error: Name or service not known",
            "test complete", "return status -2"), r.out().lines().toList(), r.transcript());
    }

    private static CmatoseOptions parse(String... args) throws Exception {
        java.io.PrintStream sink = new java.io.PrintStream(new java.io.ByteArrayOutputStream());
        return CmatoseOptions.parse(List.of(args), sink, sink).options();
    }
}
