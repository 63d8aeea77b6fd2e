package io.jroce.tests.interop;

import io.jroce.testcontainers.RxePeer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.zip.CRC32;

import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QueuePair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP command channel to rc_ops_peer in an rxe guest (protocol at the top of
 * tests/src/test/c/rc_ops_peer.c): one line out, one line back. Shared by the interop tests
 * that drive that peer.
 */
final class RcOpsPeerChannel implements AutoCloseable {
    /** rc_ops_peer's source, compiled for the guest when a peer starts (the tests run in the module's directory). */
    static final Path SOURCE = Path.of("src/test/c/rc_ops_peer.c");
    private static final Logger LOG = LoggerFactory.getLogger(RcOpsPeerChannel.class);
    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    private RcOpsPeerChannel(Socket socket, Duration timeout) throws IOException {
        this.socket = socket;
        socket.setSoTimeout((int) timeout.toMillis());
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        this.out = socket.getOutputStream();
    }

    /**
     * Listens on {@code host}:{@code port}. A fresh bridge's IPv6 address is tentative until a
     * port is up and DAD is done: wait for it (a new socket per attempt; a socket whose bind failed
     * is not reused).
     */
    static ServerSocket listen(String host, int port) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            ServerSocket s = new ServerSocket();
            try {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
                LOG.info("listening on {} after {} attempt(s)", s.getLocalSocketAddress(), attempt);
                return s;
            } catch (BindException e) {
                s.close();
                if (attempt >= 600) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** Waits for rc_ops_peer in {@code peer} to connect; on failure the guest's console explains. */
    static RcOpsPeerChannel accept(ServerSocket listener, RxePeer peer, Duration timeout) throws IOException {
        Socket socket;
        try {
            socket = listener.accept();
        } catch (IOException e) {
            throw new AssertionError("rc_ops_peer did not connect: " + e + "\n" + String.join("\n", peer.consoleLines()), e);
        }
        return new RcOpsPeerChannel(socket, timeout);
    }

    /** What rc_ops_peer's QP line says: its QP, and the buffer it lends (rkey, address, length). */
    record PeerQp(RemoteQp qp, int rkey, long address, long length) {
    }

    /**
     * Reads rc_ops_peer's {@code QP qpn psn gid rkey addr len} line and answers with jroce's: {@code qp},
     * whose first PSN is {@code psn}, on {@code gid}, lending {@code target}.
     */
    PeerQp exchangeQp(QueuePair qp, int psn, Gid gid, MemoryRegion target) throws IOException {
        String[] p = readLine().split(" ");
        assertEquals(7, p.length, String.join(" ", p));
        assertEquals("QP", p[0]);
        send(String.format("QP %x %x %s %x %x %x", qp.qpNum(), psn, gid.toWireHex(), target.rkey(),
            target.address(), target.length()));
        return new PeerQp(new RemoteQp(Integer.parseInt(p[1], 16), Integer.parseInt(p[2], 16), Gid.fromWireHex(p[3])),
            Integer.parseUnsignedInt(p[4], 16), Long.parseUnsignedLong(p[5], 16), Long.parseUnsignedLong(p[6], 16));
    }

    String readLine() throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new AssertionError("rc_ops_peer closed the connection");
        }
        LOG.debug("<- {}", line);
        return line;
    }

    void send(String line) throws IOException {
        LOG.debug("-> {}", line);
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    String call(String command) throws IOException {
        send(command);
        return readLine();
    }

    void expect(String command, String reply) throws IOException {
        assertEquals(reply, call(command), command);
    }

    /** A command answered by "WC ...": its words. */
    String[] wc(String command) throws IOException {
        String reply = call(command);
        assertTrue(reply.startsWith("WC "), command + " -> " + reply);
        return reply.split(" ");
    }

    /** MEM off len on the peer: the CRC of the whole region and its first 16 bytes. */
    void assertMem(int off, byte[] expected, String what) throws IOException {
        String reply = call("MEM " + hex(off) + " " + hex(expected.length));
        String first = expected.length == 0 ? "-"
            : HexFormat.of().formatHex(expected, 0, Math.min(16, expected.length));
        assertEquals("MEM " + crcHex(expected) + " " + first, reply, what);
    }

    static String crcHex(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return String.format("%08x", crc.getValue());
    }

    static String hex(long v) {
        return Long.toHexString(v);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
