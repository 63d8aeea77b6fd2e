package io.jroce.tools.perftest;

import io.jroce.verbs.exchange.PerftestDest;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * perftest's out-of-band exchange (perftest_communication.c), over TCP or, with -R, over the RDMA
 * CM's control QP ({@link CmControlChannel}). Every exchange has a fixed size and the same order:
 * the client writes, then reads; the server reads, then writes. On it go, in this order: the
 * 16-byte versions, the page and cache line sizes (check_sys_data), the MTU (check_mtu), the key
 * messages of {@link PerftestDest} (ctx_hand_shake, also used bare as a barrier), the BW reports,
 * and at the end a handshake and, over TCP only, "done".
 */
final class PerftestComm implements Closeable {
    /** The version the twins announce: perftest v4.5-0.17's configure.ac says 6.06. */
    static final String VERSION = "6.06";
    static final int VERSION_LENGTH = 16;
    /** sysconf(_SC_PAGESIZE) on the machines perftest runs on: the cycle buffer. */
    static final int PAGE_SIZE = 4096;
    /** The L1 data cache line perftest aligns messages to. */
    static final int CACHE_LINE = 64;

    private final OobChannel channel;
    private final boolean client;
    private double remoteVersion;
    private int cycleBuffer = PAGE_SIZE;
    private int cacheLine = CACHE_LINE;
    /** The GID index the binary key records carry (gid_index of struct pingpong_dest). */
    private int gidIndex;

    PerftestComm(OobChannel channel, boolean client) {
        this.channel = channel;
        this.client = client;
    }

    /** ethernet_client_connect: the first of the host's IPv4 addresses (getaddrinfo AF_INET) that accepts. */
    static PerftestComm connect(String host, int port) throws PerftestException {
        for (InetAddress address : Ipv4AddrInfo.resolve(host, port, "Problem in resolving basic address and port")) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(address, port));
                return new PerftestComm(new TcpOobChannel(s), true);
            } catch (IOException e) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing was sent on it
                }
            }
        }
        throw new PerftestException("Couldn't connect to " + host + ":" + port
            + "\nUnable to open file descriptor for socket connection Unable to init the socket connection");
    }

    /** ethernet_server_connect: listens (SO_REUSEADDR, backlog 1), accepts one client, stops listening. */
    static PerftestComm accept(int port) throws PerftestException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            try {
                listener.bind(new InetSocketAddress(port), 1);
            } catch (IOException e) {
                throw new PerftestException("Couldn't listen to port " + port, e);
            }
            return new PerftestComm(new TcpOobChannel(listener.accept()), false);
        } catch (IOException e) {
            throw new PerftestException("accept() failed", e);
        }
    }

    /** Whether the exchange goes over the RDMA CM's control QP (-R). */
    boolean rdmaCm() {
        return channel.rdmaCm();
    }

    void gidIndex(int index) {
        this.gidIndex = index;
    }

    boolean isClient() {
        return client;
    }

    /** ctx_xchg_data: sends {@code mine}, returns the peer's {@code length} bytes. */
    byte[] exchange(byte[] mine, int length) throws PerftestException {
        try {
            if (client) {
                write(mine);
                return read(length);
            }
            byte[] remote = read(length);
            write(mine);
            return remote;
        } catch (IOException e) {
            throw new PerftestException(" Failed to exchange data between server and clients (" + e.getMessage() + ")",
                e);
        }
    }

    private void write(byte[] data) throws IOException {
        channel.send(data);
    }

    private byte[] read(int length) throws IOException {
        return channel.receive(length);
    }

    /**
     * exchange_versions and check_version_compatibility: 16 bytes each way, NUL-padded text read
     * with atof. A peer older than 5.70 is refused, as perftest does.
     */
    double exchangeVersions() throws PerftestException {
        byte[] mine = new byte[VERSION_LENGTH];
        byte[] v = VERSION.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(v, 0, mine, 0, v.length);
        remoteVersion = atof(exchange(mine, VERSION_LENGTH));
        if (remoteVersion < 5.70) {
            throw new PerftestException("Current implementation is not compatible with versions older than 5.70");
        }
        return remoteVersion;
    }

    double remoteVersion() {
        return remoteVersion;
    }

    /** check_sys_data (peer 5.32 and later): page and cache line sizes, big-endian; both take the max. */
    void exchangeSysData() throws PerftestException {
        if (remoteVersion < 5.32) {
            return;
        }
        int remoteCycle = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cycleBuffer).array(), 4)).getInt();
        int remoteLine = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cacheLine).array(), 4)).getInt();
        cycleBuffer = Math.max(cycleBuffer, remoteCycle);
        cacheLine = Math.max(cacheLine, remoteLine);
    }

    int cycleBuffer() {
        return cycleBuffer;
    }

    int cacheLine() {
        return cacheLine;
    }

    /**
     * check_mtu: the MTU enum (1 = 256 ... 5 = 4096) as decimal text, 2 bytes (peer 5.31 and later,
     * else 4); the smaller valid one wins.
     */
    int exchangeMtu(int mtuEnum) throws PerftestException {
        if (remoteVersion < 5.1) {
            return mtuEnum;
        }
        int length = remoteVersion >= 5.31 ? 2 : 4;
        byte[] mine = new byte[length];
        byte[] text = Integer.toString(mtuEnum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, mine, 0, Math.min(text.length, length));
        int remote = (int) atol(exchange(mine, length));
        return remote >= 1 && remote <= 5 && mtuEnum > remote ? remote : mtuEnum;
    }

    /**
     * ctx_hand_shake: the key message each way (over the control QP the binary record); also the
     * barrier between the steps of a test.
     */
    PerftestDest handShake(PerftestDest mine) throws PerftestException {
        if (channel.rdmaCm()) {
            try {
                return PerftestDest.fromRecord(exchange(mine.toRecord(gidIndex), PerftestDest.RECORD_LENGTH));
            } catch (IllegalArgumentException e) {
                throw new PerftestException("Couldn't read the peer's keys: " + e.getMessage(), e);
            }
        }
        byte[] remote = exchange(mine.toMessage(), PerftestDest.MESSAGE_LENGTH);
        try {
            return PerftestDest.parse(remote);
        } catch (IllegalArgumentException e) {
            throw new PerftestException("Couldn't parse line <" + new String(remote, StandardCharsets.US_ASCII).trim()
                + ">", e);
        }
    }

    /**
     * The handshakes around create_rdma_cm_connection: my_dest[0] still zeroed (main()'s memset),
     * so 56 zero bytes each way; what the peer sends is not looked at.
     */
    void zeroHandShake() throws PerftestException {
        exchange(new byte[PerftestDest.RECORD_LENGTH], PerftestDest.RECORD_LENGTH);
    }

    /** xchg_bw_reports: size, iters (8 bytes from 5.33 on, else 4), BW peak, BW average, message rate. */
    BwReport exchangeReports(BwReport mine) throws PerftestException {
        long size = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(mine.size()).array(), 8)).getLong();
        long iters;
        if (remoteVersion >= 5.33) {
            iters = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(mine.iters()).array(), 8)).getLong();
        } else {
            iters = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt((int) mine.iters()).array(), 4)).getInt();
        }
        double peak = exchangeDouble(mine.bwPeak());
        double avg = exchangeDouble(mine.bwAvg());
        double rate = exchangeDouble(mine.msgRate());
        return new BwReport(size, iters, peak, avg, rate);
    }

    /** A double as perftest sends it from a little-endian host: byte-swapped, so big-endian. */
    private double exchangeDouble(double mine) throws PerftestException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putDouble(mine).array(), 8)).getDouble();
    }

    /** ctx_close_connection: a last handshake, then over TCP "done" with its NUL (which nobody reads). */
    void closeConnection(PerftestDest mine) throws PerftestException {
        handShake(mine);
        if (channel.rdmaCm()) {
            return;
        }
        try {
            write(new byte[] {'d', 'o', 'n', 'e', 0});
        } catch (IOException e) {
            throw new PerftestException("Couldn't write to socket", e);
        }
    }

    @Override
    public void close() {
        channel.close();
    }

    /** atof of NUL-terminated text: the longest leading decimal number, 0 when there is none. */
    static double atof(byte[] text) {
        String s = cString(text).trim();
        int end = 0;
        boolean dot = false;
        while (end < s.length() && (Character.isDigit(s.charAt(end)) || (s.charAt(end) == '.' && !dot))) {
            dot |= s.charAt(end) == '.';
            end++;
        }
        try {
            return end == 0 ? 0 : Double.parseDouble(s.substring(0, end));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long atol(byte[] text) {
        String s = cString(text).trim();
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Long.parseLong(s.substring(0, end));
    }

    private static String cString(byte[] text) {
        int end = 0;
        while (end < text.length && text[end] != 0) {
            end++;
        }
        return new String(text, 0, end, StandardCharsets.US_ASCII);
    }
}
