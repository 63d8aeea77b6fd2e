package io.jroce.tools.rdmaep;

import static io.jroce.tools.cmcommon.TwinAddresses.CLIENT;
import static io.jroce.tools.cmcommon.TwinAddresses.PROBE;
import static io.jroce.tools.cmcommon.TwinAddresses.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.cmcommon.ListenProbe;
import io.jroce.tools.cmcommon.TwinAddresses;
import io.jroce.tools.cmcommon.TwinSide;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jroce rdma_server} against {@code jroce rdma_client} over UDP on loopback (127.0.0.1 and
 * 127.0.0.2, one free UDP port): the programs' exact lines and exit statuses for a connection, a
 * client nobody listens for, and bad options.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RdmaEpCommandsTest {
    private static void awaitListening(TwinSide server, String udp, String port) throws Exception {
        ListenProbe.awaitListening(server, "rdma_server: start", udp, port, "tcp");
    }

    @Test
    void theClientAndTheServerExchangeTheirMessagesAndEndWithZero() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start("rdma_server", "-s", SERVER, "--bind", SERVER, "--bind", PROBE,
                 "--udp-port", udp)) {
            awaitListening(server, udp, EpOptions.DEFAULT_PORT);
            try (TwinSide client = TwinSide.start("rdma_client", "-s", SERVER, "--bind", CLIENT, "--udp-port", udp)) {
                String context = server.transcript() + "\n" + client.transcript();
                assertEquals(0, client.await(), context);
                assertEquals(0, server.await(), context);
                context = server.transcript() + "\n" + client.transcript();
                assertEquals(List.of("rdma_client: start", "rdma_client: end 0"), client.outLines(), context);
                assertEquals(List.of("rdma_server: start", "rdma_server: end 0"), server.outLines(), context);
                assertEquals("", client.err(), context);
                assertEquals("", server.err(), context);
            }
        }
    }

    /**
     * A client to a port nobody listens on gets REJ 8 from the server's device at once: rdma_connect
     * fails with ECONNREFUSED, "rdma_client: end -1", exit status 255, not a hang. The server on
     * port 7480 then serves a client and ends.
     */
    @Test
    void aPortNobodyListensOnEndsTheClientWithMinusOne() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start("rdma_server", "-s", SERVER, "-p", "7480", "--bind", SERVER, "--bind",
            PROBE, "--udp-port", udp)) {
            awaitListening(server, udp, "7480");
            try (TwinSide r = TwinSide.start("rdma_client", "-s", SERVER, "-p", "7481", "--bind", CLIENT, "--udp-port",
                udp)) {
                String context = r.transcript() + "\n" + server.transcript();
                assertEquals(255, r.await(), context);
                assertEquals(List.of("rdma_client: start", "rdma_client: end -1"), r.outLines(), context);
                assertEquals(List.of("rdma_connect: Connection refused"), r.errLines(), context);
            }
            try (TwinSide served = TwinSide.start("rdma_client", "-s", SERVER, "-p", "7480", "--bind", CLIENT,
                "--udp-port", udp)) {
                String context = served.transcript() + "\n" + server.transcript();
                assertEquals(0, served.await(), context);
                assertEquals(0, server.await(), context);
                assertEquals(List.of("rdma_server: start", "rdma_server: end 0"), server.outLines(), context);
            }
        }
    }

    /**
     * rdma_server's default -s 0.0.0.0 binds the wildcard, as rdma_server does: its one endpoint
     * takes a client to any address of its device, here the second. The client is run again while
     * the server's device refuses it (REJ 8), before the listener is up.
     */
    @Test
    void theDefaultServerListensOnTheWildcard() throws Exception {
        String udp = Integer.toString(TwinAddresses.freeUdpPort());
        try (TwinSide server = TwinSide.start("rdma_server", "-p", "7482", "--bind", SERVER, "--bind", PROBE,
                 "--udp-port", udp);
             TwinSide client = TwinSide.startAgainWhile(c -> c.err().contains("rdma_connect: Connection refused"),
                 "rdma_client", "-s", PROBE, "-p", "7482", "--bind", CLIENT, "--udp-port", udp)) {
            String context = server.transcript() + "\n" + client.transcript();
            assertEquals(0, client.await(), context);
            assertEquals(0, server.await(), context);
            assertEquals(List.of("rdma_client: start", "rdma_client: end 0"), client.outLines(), context);
            assertEquals(List.of("rdma_server: start", "rdma_server: end 0"), server.outLines(), context);
            assertEquals("", server.err(), context);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rdma_server", "rdma_client"})
    void anUnknownOptionPrintsTheProgramsUsageAndExitsWith1(String program) throws Exception {
        CommandRunner r = CommandRunner.run(program, "-x");
        assertEquals(1, r.status(), r.transcript());
        assertEquals("usage: " + program + "\n\t[-s server_address]\n\t[-p port_number]\n", r.out(), r.transcript());
        CommandRunner missing = CommandRunner.run(program, "-p");
        assertEquals(1, missing.status(), missing.transcript());
    }

    /** A service that is not a port number: getaddrinfo's EAI_SERVICE (-8), exit status 248. */
    @ParameterizedTest
    @ValueSource(strings = {"rdma_server", "rdma_client"})
    void aPortThatIsNotANumberFailsAsGetaddrinfoDoes(String program) throws Exception {
        CommandRunner r = CommandRunner.run(program, "-s", SERVER, "-p", "seven");
        assertEquals(248, r.status(), r.transcript());
        assertEquals(List.of(program + ": start", "rdma_getaddrinfo: Servname not supported for ai_socktype",
            program + ": end -8"), r.out().lines().toList(), r.transcript());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rdma_server", "rdma_client"})
    void theHelpNamesTheProgramAndItsOptions(String program) throws Exception {
        CommandRunner r = CommandRunner.run("help", program);
        assertEquals(0, r.status(), r.transcript());
        String help = r.out() + r.err();
        assertEquals(true, help.startsWith("usage: jroce " + program + " [-s server_address] [-p port]"), help);
        assertEquals(true, help.contains("options (as " + program + "):") && help.contains("default 7471"), help);
        assertEquals(false, help.contains("%"), help);
    }
}
