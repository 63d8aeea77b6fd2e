package com.example.pingpong;

import io.jroce.verbs.exchange.PingpongDest;
import io.jroce.verbs.exchange.PingpongExchange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The client: tells the server its QP over TCP and learns the server's, connects its QP, then sends
 * {@code ITERATIONS} pings ({@code "ping <n>"}) and waits for each pong. rdma-core's
 * {@code ibv_rc_pingpong} (without a server name) is a server it pings.
 * Run: {@code PingClient ADDRESS SERVER_HOST TCP_PORT ITERATIONS [UDP_PORT]}.
 */
public final class PingClient {
    private PingClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: PingClient ADDRESS SERVER_HOST TCP_PORT ITERATIONS [UDP_PORT]");
            System.exit(2);
        }
        int udpPort = args.length > 4 ? Integer.parseInt(args[4]) : 4791;
        for (byte[] pong : ping(args[0], udpPort, args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]))) {
            System.out.println("got " + pong.length + " bytes");
        }
    }

    /**
     * Pings a server {@code iterations} times.
     *
     * @param address the client device's address
     * @param udpPort the RoCE UDP port of both devices
     * @param serverHost the server's host for TCP
     * @param tcpPort the server's TCP port
     * @param iterations how many pings
     * @return the pongs, in order
     * @throws Exception the exchange or a verb failed
     */
    public static List<byte[]> ping(String address, int udpPort, String serverHost, int tcpPort, int iterations)
        throws Exception {
        try (RcSide side = new RcSide(address, udpPort)) {
            PingpongDest server = PingpongExchange.client(serverHost, tcpPort, List.of(side.myDest()),
                Duration.ofSeconds(30)).get(0);
            side.connect(server); // the server connected its QP before it answered: sending now is safe
            List<byte[]> pongs = new ArrayList<>();
            for (int i = 0; i < iterations; i++) {
                side.send(("ping " + i).getBytes(StandardCharsets.UTF_8));
                pongs.add(side.receive());
            }
            return pongs;
        }
    }
}
