package io.jroce.tools.pingpong;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A jroce ping-pong server and client (rc_pingpong unless another twin is named) in this JVM, on
 * two threads: the server starts first, the client once the server listens (as one starts the real
 * tools). Each side gets its own address and a free UDP port, so nothing here needs port 4791.
 */
final class PingpongPair {
    /** Guards against hangs only; a run ends as soon as both sides are done. */
    static final long GUARD_S = 300;
    /** What each side passes as --timeout, so that a lost peer ends a run instead of hanging it. */
    static final String TIMEOUT_S = "30";

    /** The command both sides run: rc_pingpong, uc_pingpong, ud_pingpong or srq_pingpong. */
    final String command;
    final String serverAddress;
    final String clientAddress;
    final String host;
    final int tcpPort = Ports.freeTcpPort();
    final int serverUdpPort;
    final int clientUdpPort;

    /** @param host what the client connects to over TCP */
    PingpongPair(String serverAddress, String clientAddress, String host) {
        this("rc_pingpong", serverAddress, clientAddress, host);
    }

    PingpongPair(String command, String serverAddress, String clientAddress, String host) {
        this.command = command;
        this.serverAddress = serverAddress;
        this.clientAddress = clientAddress;
        this.host = host;
        this.serverUdpPort = Ports.freeUdpPort(serverAddress);
        int p = Ports.freeUdpPort(clientAddress);
        while (p == serverUdpPort) {
            p = Ports.freeUdpPort(clientAddress);
        }
        this.clientUdpPort = p;
    }

    static PingpongPair ipv4() {
        return ipv4("rc_pingpong");
    }

    static PingpongPair ipv6() {
        return ipv6("rc_pingpong");
    }

    static PingpongPair ipv4(String command) {
        return new PingpongPair(command, "127.0.0.1", "127.0.0.2", "127.0.0.1");
    }

    static PingpongPair ipv6(String command) {
        return new PingpongPair(command, "::1", "::1", "::1");
    }

    /** The two command lines' results. */
    record Result(CommandRunner server, CommandRunner client) {
        String transcript() {
            return "--- server: " + server.transcript() + "\n--- client: " + client.transcript();
        }
    }

    List<String> serverArgs(String... extra) {
        return args(serverAddress, serverUdpPort, clientUdpPort, null, extra);
    }

    List<String> clientArgs(String... extra) {
        return args(clientAddress, clientUdpPort, serverUdpPort, host, extra);
    }

    private List<String> args(String bind, int udp, int peerUdp, String connectTo, String... extra) {
        List<String> a = new ArrayList<>(List.of(command, "-p", Integer.toString(tcpPort), "--bind", bind,
            "--udp-port", Integer.toString(udp), "--peer-udp-port", Integer.toString(peerUdp),
            "--timeout", TIMEOUT_S));
        a.addAll(List.of(extra));
        if (connectTo != null) {
            a.add(connectTo);
        }
        return a;
    }

    /** Runs both sides with the same {@code options}. */
    Result run(String... options) throws Exception {
        return run(List.of(options), List.of(options));
    }

    Result run(List<String> serverOptions, List<String> clientOptions) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, command + "-server"));
        try {
            Future<CommandRunner> server = pool.submit(
                () -> CommandRunner.run(serverArgs(serverOptions.toArray(String[]::new)).toArray(String[]::new)));
            awaitListening(server);
            CommandRunner client = CommandRunner.run(clientArgs(clientOptions.toArray(String[]::new))
                .toArray(String[]::new));
            return new Result(server.get(GUARD_S, TimeUnit.SECONDS), client);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until the server listens (or has already ended, having failed). */
    void awaitListening(Future<?> server) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_S);
        while (!Ports.listening(tcpPort) && !server.isDone()) {
            assertTrue(System.nanoTime() - deadline < 0, "the server did not listen on " + tcpPort);
            Thread.sleep(10);
        }
    }
}
