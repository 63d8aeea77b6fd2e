package com.example.pingpong;

import io.jroce.verbs.exchange.PingpongDest;
import io.jroce.verbs.exchange.PingpongExchange;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The server: waits for a client on TCP, learns its QP from the exchange, connects its own QP to
 * it before answering (as ibv_rc_pingpong's server does), then sends each message it receives back
 * (its pong). rdma-core's {@code ibv_rc_pingpong SERVER} is a client it serves.
 * Run: {@code PingServer ADDRESS TCP_PORT ITERATIONS [UDP_PORT]}.
 */
public final class PingServer {
    private PingServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: PingServer ADDRESS TCP_PORT ITERATIONS [UDP_PORT]");
            System.exit(2);
        }
        int udpPort = args.length > 3 ? Integer.parseInt(args[3]) : 4791;
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(Integer.parseInt(args[1])), 1);
            System.out.println("listening on " + listener.getLocalPort());
            System.out.flush();
            for (byte[] ping : serve(args[0], udpPort, listener, Integer.parseInt(args[2]), Duration.ZERO)) {
                System.out.println("got " + new String(ping, StandardCharsets.UTF_8));
            }
        }
    }

    /**
     * Serves one client that connects to {@code listener}: {@code iterations} pings, each sent back.
     *
     * @param address the server device's address
     * @param udpPort the RoCE UDP port of both devices
     * @param listener a bound TCP listener
     * @param iterations how many pings the client sends
     * @param patience the longest wait for the client and each of its TCP messages; {@link Duration#ZERO}
     *        waits for ever, as ibv_rc_pingpong does
     * @return the pings received, in order
     * @throws Exception the exchange or a verb failed
     */
    public static List<byte[]> serve(String address, int udpPort, ServerSocket listener, int iterations,
                                     Duration patience) throws Exception {
        try (RcSide side = new RcSide(address, udpPort)) {
            PingpongDest client = PingpongExchange.accept(listener, List.of(side.myDest()), patience,
                remote -> side.connect(remote.get(0))).get(0);
            System.out.println("client QP 0x" + Integer.toHexString(client.qpn()) + " at "
                + client.gid().toInetAddress().getHostAddress());
            List<byte[]> pings = new ArrayList<>();
            for (int i = 0; i < iterations; i++) {
                byte[] ping = side.receive();
                pings.add(ping);
                side.send(ping);
            }
            return pings;
        }
    }
}
