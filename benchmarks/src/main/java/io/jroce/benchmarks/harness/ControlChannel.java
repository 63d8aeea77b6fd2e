package io.jroce.benchmarks.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The baselines' out-of-band TCP connection (perftest's role for its own): one line of
 * space-separated words each way, to agree on the test before it and to compare counts after it.
 */
final class ControlChannel implements AutoCloseable {
    /** How long a client keeps trying to reach a server that is still starting. */
    static final long CONNECT_PATIENCE_MS = 10_000;

    private final Socket socket;
    private final BufferedReader in;
    private final PrintWriter out;

    private ControlChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        this.out = new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.US_ASCII), true);
    }

    /** Waits for one client on {@code bind}:{@code port}. */
    static ControlChannel accept(String bind, int port) throws IOException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getByName(bind), port));
            return new ControlChannel(listener.accept());
        }
    }

    /** Connects from {@code bind} to the server, retrying while it is not listening yet. */
    static ControlChannel connect(String bind, String server, int port) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + CONNECT_PATIENCE_MS;
        while (true) {
            Socket s = new Socket();
            try {
                s.bind(new InetSocketAddress(InetAddress.getByName(bind), 0));
                s.connect(new InetSocketAddress(InetAddress.getByName(server), port), 1000);
                return new ControlChannel(s);
            } catch (IOException e) {
                s.close();
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("cannot connect to " + server + ":" + port + ": " + e.getMessage(), e);
                }
                Thread.sleep(50);
            }
        }
    }

    void send(Object... words) {
        StringBuilder sb = new StringBuilder();
        for (Object w : words) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(w);
        }
        out.println(sb);
    }

    /** The next line's words; the first must be {@code expected}. */
    String[] receive(String expected) throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("the peer closed the connection while " + expected + " was expected");
        }
        String[] words = line.trim().split(" ");
        if (!words[0].equals(expected)) {
            throw new IOException("expected " + expected + " from the peer, got: " + line);
        }
        return words;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
