package io.jroce.verbs.exchange;

import io.jroce.verbs.Arguments;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The TCP exchange of rdma-core's pingpong examples ({@code pp_client_exch_dest},
 * {@code pp_server_exch_dest}), so a jroce program and ibv_rc_pingpong (or two jroce programs)
 * connect their QPs without the RDMA CM: the client connects and writes its
 * {@link PingpongDest#MESSAGE_LENGTH}-byte messages, each in a write of its own; the server reads
 * as many, connects its QPs ({@link QpStep}), writes its own; the client reads them and writes
 * {@code "done"} and its NUL, which the server reads; both close. ibv_rc_pingpong, uc and ud send
 * one message each way, ibv_srq_pingpong one per QP.
 *
 * <pre>{@code
 * // server
 * List<PingpongDest> peer = PingpongExchange.server(18515, List.of(PingpongDest.of(qp, psn, gid)),
 *     Duration.ofSeconds(30), remote -> QpConnector.rc().connect(qp, psn, remote.get(0).toRemoteQp()));
 * // client
 * List<PingpongDest> peer = PingpongExchange.client("10.0.0.1", 18515, List.of(PingpongDest.of(qp, psn, gid)),
 *     Duration.ofSeconds(30));
 * QpConnector.rc().connect(qp, psn, peer.get(0).toRemoteQp());
 * }</pre>
 *
 * A timeout bounds the client's connect and each read, and the server's wait for a client and each
 * read ({@link Duration#ZERO}: no bound, as the C tools have none). Every failure is an
 * {@link ExchangeException} naming its step.
 */
public final class PingpongExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    /** The server's step between reading the client's messages and answering: connecting its QPs. */
    @FunctionalInterface
    public interface QpStep {
        /**
         * Connects this side's QPs to the client's.
         *
         * @param remote the client's messages, in order
         * @throws Exception anything: the exchange then fails at {@link ExchangeException.Step#CONNECT_QPS}
         */
        void connect(List<PingpongDest> remote) throws Exception;
    }

    private PingpongExchange() {
    }

    /**
     * The client side: connects to {@code host} (its addresses in the resolver's order, the first
     * that answers), sends {@code mine}, returns as many messages of the server's.
     *
     * @param host the server's host name or address
     * @param port its TCP port (the C tools' default is 18515)
     * @param mine this side's messages, at least one
     * @param timeout the longest wait for the connect and for each read; {@link Duration#ZERO} for none
     * @return the server's messages
     * @throws ExchangeException the exchange failed; {@link ExchangeException#step()} says where
     * @throws io.jroce.verbs.InvalidAttributeException a null argument or an empty list
     */
    public static List<PingpongDest> client(String host, int port, List<PingpongDest> mine, Duration timeout)
        throws ExchangeException {
        check(mine, timeout);
        Arguments.notNull(host, "host");
        int timeoutMs = millis(timeout);
        InetAddress[] candidates;
        try {
            candidates = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new ExchangeException(ExchangeException.Step.RESOLVE, -1, -1, "cannot resolve " + host, e);
        }
        Socket socket = null;
        IOException refused = null;
        for (InetAddress address : candidates) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(address, port), timeoutMs);
                s.setSoTimeout(timeoutMs);
                socket = s;
                break;
            } catch (IOException e) {
                refused = e;
                closeQuietly(s);
            }
        }
        if (socket == null) {
            throw new ExchangeException(ExchangeException.Step.CONNECT, -1, -1,
                "cannot connect to " + host + ":" + port, refused);
        }
        try (Socket s = socket) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            send(out, mine);
            List<PingpongDest> remote = receive(in, mine.size());
            try {
                out.write(DONE);
                out.flush();
            } catch (IOException e) {
                throw new ExchangeException(ExchangeException.Step.DONE, -1, -1, "cannot write done", e);
            }
            return remote;
        } catch (ExchangeException e) {
            throw e;
        } catch (IOException e) {
            throw new ExchangeException(ExchangeException.Step.SEND, -1, -1, "the connection failed", e);
        }
    }

    /**
     * The server side as the C tools run it: listens on every address of {@code port} (reusing the
     * address, a backlog of 1), accepts one client, stops listening, and goes on as
     * {@link #accept(ServerSocket, List, Duration, QpStep)}.
     *
     * @param port the TCP port
     * @param mine this side's messages: as many as the client sends
     * @param timeout the longest wait for the client and for each read; {@link Duration#ZERO} for none
     * @param connect connects this side's QPs to the client's, before this side answers
     * @return the client's messages
     * @throws ExchangeException the exchange failed; {@link ExchangeException#step()} says where
     * @throws io.jroce.verbs.InvalidAttributeException a null argument or an empty list
     */
    public static List<PingpongDest> server(int port, List<PingpongDest> mine, Duration timeout, QpStep connect)
        throws ExchangeException {
        check(mine, timeout);
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port), 1);
            return accept(listener, mine, timeout, connect);
        } catch (ExchangeException e) {
            throw e;
        } catch (IOException e) { // the listener could not be made, bound or closed
            throw new ExchangeException(ExchangeException.Step.LISTEN, -1, -1, "cannot listen to port " + port, e);
        }
    }

    /**
     * The server side on a listener the caller bound (so it knows when clients may connect): accepts
     * one client, reads as many messages as {@code mine} holds, runs {@code connect} on them, answers
     * with {@code mine}, and reads the client's "done". The listener stays open, the caller's.
     *
     * @param listener a bound server socket
     * @param mine this side's messages: as many as the client sends
     * @param timeout the longest wait for the client and for each read; {@link Duration#ZERO} for none
     * @param connect connects this side's QPs to the client's, before this side answers
     * @return the client's messages
     * @throws ExchangeException the exchange failed; {@link ExchangeException#step()} says where
     * @throws io.jroce.verbs.InvalidAttributeException a null argument or an empty list
     */
    public static List<PingpongDest> accept(ServerSocket listener, List<PingpongDest> mine, Duration timeout,
                                            QpStep connect) throws ExchangeException {
        check(mine, timeout);
        Arguments.notNull(listener, "listener");
        Arguments.notNull(connect, "connect");
        int timeoutMs = millis(timeout);
        Socket socket;
        try {
            listener.setSoTimeout(timeoutMs);
            socket = listener.accept();
            socket.setSoTimeout(timeoutMs);
        } catch (IOException e) {
            throw new ExchangeException(ExchangeException.Step.ACCEPT, -1, -1, "no client connected", e);
        }
        try (Socket s = socket) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            List<PingpongDest> remote = receive(in, mine.size());
            try {
                connect.connect(remote);
            } catch (Exception e) {
                throw new ExchangeException(ExchangeException.Step.CONNECT_QPS, -1, -1,
                    "cannot connect to the client's QPs: " + e.getMessage(), e);
            }
            send(out, mine);
            byte[] done;
            try {
                done = in.readNBytes(DONE.length);
            } catch (IOException e) {
                throw new ExchangeException(ExchangeException.Step.DONE, -1, 0, "cannot read done", e);
            }
            if (done.length != DONE.length) {
                throw new ExchangeException(ExchangeException.Step.DONE, -1, done.length,
                    "the client closed the connection without saying done", null);
            }
            return remote;
        } catch (ExchangeException e) {
            throw e;
        } catch (IOException e) {
            throw new ExchangeException(ExchangeException.Step.RECEIVE, -1, 0, "the connection failed", e);
        }
    }

    private static void send(OutputStream out, List<PingpongDest> mine) throws ExchangeException {
        try {
            for (PingpongDest d : mine) {
                out.write(d.toMessage());
            }
            out.flush();
        } catch (IOException e) {
            throw new ExchangeException(ExchangeException.Step.SEND, -1, -1, "cannot send this side's messages", e);
        }
    }

    private static List<PingpongDest> receive(InputStream in, int count) throws ExchangeException {
        List<PingpongDest> remote = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] message;
            try {
                message = in.readNBytes(PingpongDest.MESSAGE_LENGTH);
            } catch (IOException e) {
                throw new ExchangeException(ExchangeException.Step.RECEIVE, i, 0, "cannot read message " + i, e);
            }
            if (message.length != PingpongDest.MESSAGE_LENGTH) {
                throw new ExchangeException(ExchangeException.Step.RECEIVE, i, message.length, "the peer sent "
                    + message.length + " of " + PingpongDest.MESSAGE_LENGTH + " bytes of message " + i
                    + " and closed the connection", null);
            }
            try {
                remote.add(PingpongDest.parse(message));
            } catch (IllegalArgumentException e) {
                throw new ExchangeException(ExchangeException.Step.RECEIVE, i, message.length, e.getMessage(), e);
            }
        }
        return remote;
    }

    private static void check(List<PingpongDest> mine, Duration timeout) {
        Arguments.notNull(mine, "messages");
        if (mine.isEmpty() || mine.stream().anyMatch(java.util.Objects::isNull)) { // List.of's contains(null) throws
            throw new io.jroce.verbs.InvalidAttributeException("messages: at least one, none null");
        }
        Arguments.notNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new io.jroce.verbs.InvalidAttributeException("timeout " + timeout + " is negative");
        }
    }

    /** The socket timeout: 0 waits for ever; a timeout below 1 ms is 1 ms, not for ever. */
    private static int millis(Duration timeout) {
        if (timeout.isZero()) {
            return 0;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing was sent on it
        }
    }
}
