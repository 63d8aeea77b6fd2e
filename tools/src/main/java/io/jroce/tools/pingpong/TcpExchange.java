package io.jroce.tools.pingpong;

import io.jroce.verbs.exchange.ExchangeException;
import io.jroce.verbs.exchange.PingpongDest;
import io.jroce.verbs.exchange.PingpongExchange;
import java.time.Duration;
import java.util.List;

/**
 * The tools' out-of-band exchange (pp_client_exch_dest, pp_server_exch_dest) is the public
 * {@link PingpongExchange}; this says its failures in the tools' own words: rc, uc and ud send one
 * message each way, srq_pingpong 256 (MAX_QP), and srq_pingpong's lines differ and name the
 * message they failed on.
 */
final class TcpExchange {
    private TcpExchange() {
    }

    /**
     * The client side: sends {@code mine}, returns as many addresses from the server.
     *
     * @param timeoutMs longest wait for the server (connect and each read); 0 waits forever
     */
    static List<PingpongDest> client(String host, int port, List<PingpongDest> mine, int timeoutMs)
        throws PingpongException {
        try {
            return PingpongExchange.client(host, port, mine, Duration.ofMillis(timeoutMs));
        } catch (ExchangeException e) {
            throw failure(clientLine(e, host, port, mine.size() > 1), e);
        }
    }

    /**
     * The server side: listens on every address (SO_REUSEADDR, backlog 1), accepts one client,
     * stops listening, reads as many addresses as {@code mine} holds, connects, answers with
     * {@code mine}.
     *
     * @param timeoutMs longest wait for the client (accept and each read); 0 waits forever
     */
    static List<PingpongDest> server(int port, List<PingpongDest> mine, int timeoutMs,
                                     PingpongExchange.QpStep connector) throws PingpongException {
        try {
            return PingpongExchange.server(port, mine, Duration.ofMillis(timeoutMs), connector);
        } catch (ExchangeException e) {
            throw failure(serverLine(e, port, mine.size() > 1), e);
        }
    }

    /**
     * The tools' line, then (as the twins add their reason) what the socket or the parser said;
     * nothing more where the C tools' line is all (a host not resolved or not answering) or says it
     * already (the QP step's own lines).
     */
    private static PingpongException failure(String line, ExchangeException e) {
        boolean lineIsAll = switch (e.step()) {
            case RESOLVE, CONNECT, CONNECT_QPS -> true;
            default -> false;
        };
        PingpongException p = !lineIsAll && e.getCause() != null ? new PingpongException(line, e.getCause())
            : new PingpongException(line);
        if (p.getCause() == null) {
            p.initCause(e);
        }
        return p;
    }

    /** What the client tools print when {@code e} ends their exchange. */
    static String clientLine(ExchangeException e, String host, int port, boolean many) {
        String readFailure = "Couldn't read/write remote address";
        return switch (e.step()) {
            case RESOLVE -> "Name or service not known for " + host + ":" + port;
            case CONNECT -> "Couldn't connect to " + host + ":" + port;
            case SEND -> "Couldn't send local address";
            case RECEIVE -> {
                int n = PingpongDest.MESSAGE_LENGTH;
                if (e.peerClosed()) {
                    yield many ? e.received() + "/" + n + ": Couldn't read remote address [" + e.index()
                        + "] (the server closed the connection)"
                        : readFailure + " (the server sent " + e.received() + " of " + n + " bytes)";
                }
                if (e.received() == n) { // whole but malformed
                    yield many ? "Couldn't read remote address [" + e.index() + "]" : readFailure;
                }
                yield many ? "0/" + n + ": Couldn't read remote address [" + e.index() + "]" : readFailure;
            }
            case DONE -> many ? "client write" : readFailure;
            default -> readFailure;
        };
    }

    /** What the server tools print when {@code e} ends their exchange. */
    static String serverLine(ExchangeException e, int port, boolean many) {
        return switch (e.step()) {
            case LISTEN -> "Couldn't listen to port " + port;
            case ACCEPT -> "accept() failed";
            case RECEIVE -> {
                if (e.index() < 0) {
                    yield "Couldn't read remote address";
                }
                String failure = "Couldn't read remote address" + (many ? " [" + e.index() + "]" : "");
                int n = PingpongDest.MESSAGE_LENGTH;
                yield e.received() == n ? failure : e.received() + "/" + n + ": " + failure;
            }
            case CONNECT_QPS -> e.getCause().getMessage() + "\nCouldn't connect to remote QP";
            case SEND -> many ? "Couldn't send local address" : "Couldn't send/recv local address";
            case DONE -> (many ? "client write" : "Couldn't send/recv local address")
                + (e.peerClosed() ? " (the client did not say done)" : "");
            default -> "Couldn't read remote address";
        };
    }
}
