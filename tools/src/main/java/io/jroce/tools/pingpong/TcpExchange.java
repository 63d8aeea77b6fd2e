package io.jroce.tools.pingpong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The out-of-band exchange of the tools (pp_client_exch_dest, pp_server_exch_dest): the client
 * connects and writes its 52-byte address messages; the server reads them, connects its QPs
 * (RTR, RTS), writes its own; the client reads them and writes "done\0" (5 bytes), which the
 * server reads; both close. rc, uc and ud send one message each way, srq_pingpong 256 (MAX_QP).
 * Each message goes out in its own write, as rc, uc and ud read each with a single read(). The
 * error lines are those of the tool: srq_pingpong's differ, and name the message they failed on.
 */
final class TcpExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    /** The server's step between reading the client's addresses and sending its own. */
    interface QpConnector {
        void connect(List<PingpongDest> remote) throws PingpongException;
    }

    private TcpExchange() {
    }

    /**
     * The client side: sends {@code mine}, returns as many addresses from the server.
     *
     * @param timeoutMs longest wait for the server (connect and each read); 0 waits forever
     */
    static List<PingpongDest> client(String host, int port, List<PingpongDest> mine, int timeoutMs)
        throws PingpongException {
        InetAddress[] candidates;
        try {
            candidates = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new PingpongException("Name or service not known for " + host + ":" + port);
        }
        Socket socket = null;
        for (InetAddress address : candidates) { // in getaddrinfo's order, the first that answers
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(address, port), timeoutMs);
                socket = s;
                break;
            } catch (IOException e) {
                closeQuietly(s);
            }
        }
        if (socket == null) {
            throw new PingpongException("Couldn't connect to " + host + ":" + port);
        }
        boolean many = mine.size() > 1;
        String readFailure = "Couldn't read/write remote address";
        try (Socket s = socket) {
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            try {
                for (PingpongDest d : mine) {
                    out.write(d.toMessage());
                }
                out.flush();
            } catch (IOException e) {
                throw new PingpongException("Couldn't send local address", e);
            }
            List<PingpongDest> remote = new ArrayList<>(mine.size());
            for (int i = 0; i < mine.size(); i++) {
                byte[] message;
                try {
                    message = in.readNBytes(PingpongDest.MESSAGE_LENGTH);
                } catch (IOException e) {
                    throw new PingpongException(
                        many ? "0/52: Couldn't read remote address [" + i + "]" : readFailure, e);
                }
                if (message.length != PingpongDest.MESSAGE_LENGTH) {
                    throw new PingpongException(many
                        ? message.length + "/" + PingpongDest.MESSAGE_LENGTH + ": Couldn't read remote address [" + i
                            + "] (the server closed the connection)"
                        : readFailure + " (the server sent " + message.length + " of " + PingpongDest.MESSAGE_LENGTH
                            + " bytes)");
                }
                remote.add(parse(message, many ? "Couldn't read remote address [" + i + "]" : readFailure));
            }
            try {
                out.write(DONE);
                out.flush();
            } catch (IOException e) {
                throw new PingpongException(many ? "client write" : readFailure, e);
            }
            return remote;
        } catch (IOException e) {
            throw new PingpongException(readFailure, e);
        }
    }

    /**
     * The server side: listens on every address (SO_REUSEADDR, backlog 1), accepts one client,
     * stops listening, reads as many addresses as {@code mine} holds, connects, answers with
     * {@code mine}.
     *
     * @param timeoutMs longest wait for the client (accept and each read); 0 waits forever
     */
    static List<PingpongDest> server(int port, List<PingpongDest> mine, int timeoutMs, QpConnector connector)
        throws PingpongException {
        Socket socket;
        try (ServerSocket listener = new ServerSocket()) {
            try {
                listener.setReuseAddress(true);
                listener.bind(new InetSocketAddress(port), 1);
            } catch (IOException e) {
                throw new PingpongException("Couldn't listen to port " + port, e);
            }
            try {
                listener.setSoTimeout(timeoutMs);
                socket = listener.accept();
            } catch (IOException e) {
                throw new PingpongException("accept() failed", e);
            }
        } catch (IOException e) {
            throw new PingpongException("Couldn't listen to port " + port, e);
        }
        boolean many = mine.size() > 1;
        try (Socket s = socket) {
            s.setSoTimeout(timeoutMs);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            List<PingpongDest> remote = new ArrayList<>(mine.size());
            for (int i = 0; i < mine.size(); i++) {
                String failure = "Couldn't read remote address" + (many ? " [" + i + "]" : "");
                byte[] message;
                try {
                    message = in.readNBytes(PingpongDest.MESSAGE_LENGTH);
                } catch (IOException e) {
                    throw new PingpongException("0/" + PingpongDest.MESSAGE_LENGTH + ": " + failure, e);
                }
                if (message.length != PingpongDest.MESSAGE_LENGTH) {
                    throw new PingpongException(message.length + "/" + PingpongDest.MESSAGE_LENGTH + ": " + failure);
                }
                remote.add(parse(message, failure));
            }
            try {
                connector.connect(remote);
            } catch (PingpongException e) {
                PingpongException failed = new PingpongException(e.getMessage() + "\nCouldn't connect to remote QP");
                failed.initCause(e);
                throw failed;
            }
            String answerFailure = many ? "Couldn't send local address" : "Couldn't send/recv local address";
            try {
                for (PingpongDest d : mine) {
                    out.write(d.toMessage());
                }
                out.flush();
            } catch (IOException e) {
                throw new PingpongException(answerFailure, e);
            }
            String doneFailure = many ? "client write" : "Couldn't send/recv local address";
            try {
                if (in.readNBytes(DONE.length).length != DONE.length) {
                    throw new PingpongException(doneFailure + " (the client did not say done)");
                }
            } catch (IOException e) {
                throw new PingpongException(doneFailure, e);
            }
            return remote;
        } catch (IOException e) {
            throw new PingpongException("Couldn't read remote address", e);
        }
    }

    private static PingpongDest parse(byte[] message, String failure) throws PingpongException {
        try {
            return PingpongDest.parse(message);
        } catch (IllegalArgumentException e) {
            throw new PingpongException(failure, e);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing was sent on it
        }
    }
}
