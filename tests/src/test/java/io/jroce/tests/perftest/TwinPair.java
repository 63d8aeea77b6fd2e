package io.jroce.tests.perftest;

import io.jroce.testsupport.StartupGuard;
import io.jroce.tools.Commands;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A perftest twin as server and client in this JVM, on 127.0.0.1 and 127.0.0.2 with their own UDP
 * ports: the server on a thread of its own, the client on the caller's thread, retrying until the
 * server listens.
 */
public final class TwinPair {
    /** What one side returned and printed. */
    public record Side(int status, String out, String err) {
    }

    private TwinPair() {
    }

    /** Runs {@code tool} with {@code options} (blank ones skipped) on both sides; the server's side first. */
    public static List<Side> run(String tool, String... options) throws Exception {
        return run(tool, List.of(), options);
    }

    /** As {@link #run(String, String...)}, the client also given {@code clientOnly} (a --pcap of its own). */
    public static List<Side> run(String tool, List<String> clientOnly, String... options) throws Exception {
        int tcp = freePort();
        int udpServer = freePort();
        int udpClient = freePort();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Side> server = pool.submit(() -> run(args(tool, tcp, "127.0.0.1", udpServer, udpClient, null, options)));
            Side client = null;
            // The server needs a moment to listen; the client retries until it is there.
            for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
                Thread.sleep(100);
                List<String> clientOptions = new ArrayList<>(clientOnly);
                clientOptions.addAll(List.of(options));
                client = run(args(tool, tcp, "127.0.0.2", udpClient, udpServer, "127.0.0.1",
                    clientOptions.toArray(String[]::new)));
                if (!client.err.contains("Couldn't connect")) {
                    break;
                }
            }
            return List.of(server.get(300, TimeUnit.SECONDS), client);
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> args(String tool, int tcp, String bind, int udp, int peerUdp, String host,
                                     String... options) {
        List<String> a = new ArrayList<>(List.of("-p", Integer.toString(tcp), "--bind", bind, "--udp-port",
            Integer.toString(udp), "--peer-udp-port", Integer.toString(peerUdp)));
        for (String o : options) {
            if (!o.isBlank()) {
                a.add(o);
            }
        }
        if (host != null) {
            a.add(host);
        }
        a.add(0, tool);
        return a;
    }

    private static Side run(List<String> args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Commands.find(args.get(0)).orElseThrow()
                .run(args.subList(1, args.size()), o, e);
        }
        return new Side(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
