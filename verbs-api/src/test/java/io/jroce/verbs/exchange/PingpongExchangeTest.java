package io.jroce.verbs.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pingpong TCP exchange between its two public sides on loopback, and against a peer that
 * breaks it at each step: the step, message and byte count each failure reports.
 */
class PingpongExchangeTest {
    private static final Duration GUARD = Duration.ofSeconds(30);
    private static final Gid CLIENT_GID = Gid.parse("127.0.0.2");
    private static final Gid SERVER_GID = Gid.parse("127.0.0.1");

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static List<PingpongDest> dests(int n, Gid gid, int qpnBase) {
        List<PingpongDest> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new PingpongDest(0, qpnBase + i, 0x1000 + i, gid));
        }
        return l;
    }

    private static ServerSocket listener() throws Exception {
        return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    @Test
    void bothSidesGetTheOthersMessagesAndTheServerConnectsBeforeItAnswers() throws Exception {
        for (int n : new int[] {1, 3}) {
            List<PingpongDest> clientSide = List.copyOf(dests(n, CLIENT_GID, 0x40)); // immutable, as callers pass
            List<PingpongDest> serverSide = List.copyOf(dests(n, SERVER_GID, 0x80));
            List<PingpongDest> seenByQpStep = new ArrayList<>();
            try (ServerSocket l = listener()) {
                Future<List<PingpongDest>> server = pool.submit(() -> PingpongExchange.accept(l, serverSide, GUARD,
                    seenByQpStep::addAll));
                List<PingpongDest> got = PingpongExchange.client("localhost", l.getLocalPort(), clientSide, GUARD);
                assertEquals(serverSide, got);
                assertEquals(clientSide, server.get(30, TimeUnit.SECONDS));
                assertEquals(clientSide, seenByQpStep);
            }
        }
    }

    @Test
    void aServerOnAPortAcceptsOneClientAsTheCToolsDo() throws Exception {
        int port;
        try (ServerSocket probe = listener()) {
            port = probe.getLocalPort();
        }
        Future<List<PingpongDest>> server = pool.submit(() -> PingpongExchange.server(port, dests(1, SERVER_GID, 9),
            GUARD, remote -> { }));
        List<PingpongDest> got = null;
        for (long end = System.nanoTime() + GUARD.toNanos(); got == null && System.nanoTime() < end; ) {
            try {
                got = PingpongExchange.client("127.0.0.1", port, dests(1, CLIENT_GID, 5), GUARD);
            } catch (ExchangeException e) {
                assertEquals(ExchangeException.Step.CONNECT, e.step(), "only a server not listening yet is retried");
                Thread.sleep(10);
            }
        }
        assertEquals(dests(1, SERVER_GID, 9), got);
        assertEquals(dests(1, CLIENT_GID, 5), server.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aPortNobodyListensOnFailsAtConnect() throws Exception {
        int port;
        try (ServerSocket probe = listener()) {
            port = probe.getLocalPort();
        }
        ExchangeException e = assertThrows(ExchangeException.class,
            () -> PingpongExchange.client("127.0.0.1", port, dests(1, CLIENT_GID, 1), GUARD));
        assertEquals(ExchangeException.Step.CONNECT, e.step());
        assertEquals("cannot connect to 127.0.0.1:" + port, e.getMessage());
    }

    @Test
    void aServerThatClosesInTheMiddleOfItsSecondMessageIsReportedWithTheBytesThatCame() throws Exception {
        try (ServerSocket l = listener()) {
            pool.submit(() -> {
                try (Socket s = l.accept()) {
                    s.getInputStream().readNBytes(2 * PingpongDest.MESSAGE_LENGTH);
                    s.getOutputStream().write(dests(1, SERVER_GID, 1).get(0).toMessage());
                    s.getOutputStream().write(new byte[10]);
                }
                return null;
            });
            ExchangeException e = assertThrows(ExchangeException.class,
                () -> PingpongExchange.client("127.0.0.1", l.getLocalPort(), dests(2, CLIENT_GID, 1), GUARD));
            assertEquals(ExchangeException.Step.RECEIVE, e.step());
            assertEquals(1, e.index());
            assertEquals(10, e.received());
            assertTrue(e.peerClosed());
            assertNull(e.getCause());
        }
    }

    @Test
    void aMalformedMessageIsReportedWithTheParsersWords() throws Exception {
        try (ServerSocket l = listener()) {
            pool.submit(() -> {
                try (Socket s = l.accept()) {
                    s.getInputStream().readNBytes(PingpongDest.MESSAGE_LENGTH);
                    byte[] bad = new byte[PingpongDest.MESSAGE_LENGTH];
                    bad[0] = 'x';
                    s.getOutputStream().write(bad);
                    s.getInputStream().readAllBytes();
                }
                return null;
            });
            ExchangeException e = assertThrows(ExchangeException.class,
                () -> PingpongExchange.client("127.0.0.1", l.getLocalPort(), dests(1, CLIENT_GID, 1), GUARD));
            assertEquals(ExchangeException.Step.RECEIVE, e.step());
            assertEquals(0, e.index());
            assertEquals(PingpongDest.MESSAGE_LENGTH, e.received());
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
            assertEquals("malformed address message 'x'", e.getMessage());
        }
    }

    @Test
    void aQpStepThatThrowsFailsTheServerAndTheClientSeesTheConnectionEnd() throws Exception {
        try (ServerSocket l = listener()) {
            IllegalStateException refused = new IllegalStateException("RTR refused");
            Future<List<PingpongDest>> server = pool.submit(() -> PingpongExchange.accept(l, dests(1, SERVER_GID, 1), GUARD,
                remote -> {
                    throw refused;
                }));
            ExchangeException c = assertThrows(ExchangeException.class,
                () -> PingpongExchange.client("127.0.0.1", l.getLocalPort(), dests(1, CLIENT_GID, 1), GUARD));
            assertEquals(ExchangeException.Step.RECEIVE, c.step());
            assertEquals(0, c.received());
            ExchangeException s = (ExchangeException) assertThrows(java.util.concurrent.ExecutionException.class,
                () -> server.get(30, TimeUnit.SECONDS)).getCause();
            assertEquals(ExchangeException.Step.CONNECT_QPS, s.step());
            assertEquals(refused, s.getCause());
            assertEquals("cannot connect to the client's QPs: RTR refused", s.getMessage());
        }
    }

    @Test
    void aClientThatLeavesWithoutDoneFailsTheServerAtDone() throws Exception {
        try (ServerSocket l = listener()) {
            Future<List<PingpongDest>> server = pool.submit(() -> PingpongExchange.accept(l, dests(1, SERVER_GID, 1), GUARD,
                remote -> { }));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.getLocalPort())) {
                s.getOutputStream().write(dests(1, CLIENT_GID, 1).get(0).toMessage());
                InputStream in = s.getInputStream();
                assertEquals(PingpongDest.MESSAGE_LENGTH, in.readNBytes(PingpongDest.MESSAGE_LENGTH).length);
                s.getOutputStream().write(new byte[] {'d', 'o'});
            }
            ExchangeException e = (ExchangeException) assertThrows(java.util.concurrent.ExecutionException.class,
                () -> server.get(30, TimeUnit.SECONDS)).getCause();
            assertEquals(ExchangeException.Step.DONE, e.step());
            assertEquals(2, e.received());
            assertTrue(e.peerClosed());
        }
    }

    @Test
    void aServerNobodyConnectsToFailsAtAcceptWhenItsTimeoutEnds() throws Exception {
        try (ServerSocket l = listener()) {
            ExchangeException e = assertThrows(ExchangeException.class,
                () -> PingpongExchange.accept(l, dests(1, SERVER_GID, 1), Duration.ofMillis(20), remote -> { }));
            assertEquals(ExchangeException.Step.ACCEPT, e.step());
            assertInstanceOf(SocketTimeoutException.class, e.getCause());
        }
    }

    @Test
    void badArgumentsAreRefusedBeforeAnySocketOpens() {
        List<PingpongDest> one = dests(1, CLIENT_GID, 1);
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client(null, 1, one, GUARD));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client("h", 1, List.of(), GUARD));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client("h", 1, null, GUARD));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client("h", 1,
            java.util.Arrays.asList(one.get(0), null), GUARD));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client("h", 1, one, null));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.client("h", 1, one, Duration.ofSeconds(-1)));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.server(1, one, GUARD, null));
        assertThrows(InvalidAttributeException.class, () -> PingpongExchange.accept(null, one, GUARD, r -> { }));
    }

    @Test
    void anUnknownHostFailsAtResolve() {
        ExchangeException e = assertThrows(ExchangeException.class,
            () -> PingpongExchange.client("no-such-host.invalid", 1, dests(1, CLIENT_GID, 1), GUARD));
        assertEquals(ExchangeException.Step.RESOLVE, e.step());
    }
}
