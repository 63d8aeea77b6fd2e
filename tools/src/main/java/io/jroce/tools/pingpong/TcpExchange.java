package io.jroce.tools.pingpong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;

/**
 * The out-of-band exchange of ibv_rc_pingpong (pp_client_exch_dest, pp_server_exch_dest): the
 * client connects and writes its 52-byte address message; the server reads it, connects its QP
 * (RTR, RTS), writes its own; the client reads it and writes "done\0" (5 bytes), which the
 * server reads; both close. Each message goes out in one write, as the real tools read each
 * with a single read().
 */
final class TcpExchange {
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    /** The server's step between reading the client's address and sending its own. */
    interface QpConnector {
        void connect(PingpongDest remote) throws PingpongException;
    }

    private TcpExchange() {
    }

    /**
     * The client side.
     *
     * @param timeoutMs longest wait for the server (connect and each read); 0 waits forever
     */
    static PingpongDest client(String host, int port, PingpongDest mine, int timeoutMs) throws PingpongException {
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
        try (Socket s = socket) {
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            try {
                out.write(mine.toMessage());
                out.flush();
            } catch (IOException e) {
                throw new PingpongException("Couldn't send local address", e);
            }
            byte[] message;
            try {
                message = in.readNBytes(PingpongDest.MESSAGE_LENGTH);
                if (message.length != PingpongDest.MESSAGE_LENGTH) {
                    throw new PingpongException("Couldn't read/write remote address (the server sent "
                        + message.length + " of " + PingpongDest.MESSAGE_LENGTH + " bytes)");
                }
                out.write(DONE);
                out.flush();
            } catch (IOException e) {
                throw new PingpongException("Couldn't read/write remote address", e);
            }
            return parse(message, "Couldn't read/write remote address");
        } catch (IOException e) {
            throw new PingpongException("Couldn't read/write remote address", e);
        }
    }

    /**
     * The server side: listens on every address (SO_REUSEADDR, backlog 1), accepts one client,
     * stops listening.
     *
     * @param timeoutMs longest wait for the client (accept and each read); 0 waits forever
     */
    static PingpongDest server(int port, PingpongDest mine, int timeoutMs, QpConnector connector)
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
        try (Socket s = socket) {
            s.setSoTimeout(timeoutMs);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] message = in.readNBytes(PingpongDest.MESSAGE_LENGTH);
            if (message.length != PingpongDest.MESSAGE_LENGTH) {
                throw new PingpongException(message.length + "/" + PingpongDest.MESSAGE_LENGTH
                    + ": Couldn't read remote address");
            }
            PingpongDest remote = parse(message, "Couldn't read remote address");
            try {
                connector.connect(remote);
            } catch (PingpongException e) {
                PingpongException failed = new PingpongException(e.getMessage() + "\nCouldn't connect to remote QP");
                failed.initCause(e);
                throw failed;
            }
            try {
                out.write(mine.toMessage());
                out.flush();
                if (in.readNBytes(DONE.length).length != DONE.length) {
                    throw new PingpongException("Couldn't send/recv local address (the client did not say done)");
                }
            } catch (IOException e) {
                throw new PingpongException("Couldn't send/recv local address", e);
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
