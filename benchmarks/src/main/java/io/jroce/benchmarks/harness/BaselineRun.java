package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * One run of {@code udp_bw} or {@code udp_lat}, either side: agree on the test over TCP, open the
 * UDP endpoint, run on its event loop, compare counts over TCP, print perftest's report (the client)
 * or a one-line summary (the server).
 */
final class BaselineRun {
    private final BaselineOptions o;
    private final PrintStream out;
    private final PrintStream err;
    private final String name;

    BaselineRun(BaselineOptions o, PrintStream out, PrintStream err) {
        this.o = o;
        this.out = out;
        this.err = err;
        this.name = o.latency() ? "udp_lat" : "udp_bw";
    }

    void run() throws IOException, InterruptedException, ExecutionException {
        if (o.isServer()) {
            server();
        } else {
            client();
        }
    }

    private void server() throws IOException, InterruptedException, ExecutionException {
        out.println(LineFormat.banner(o, name, "server: waiting for a client on " + o.bind() + " TCP port " + o.port()));
        out.flush();
        try (ControlChannel control = ControlChannel.accept(o.bind(), o.port())) {
            String[] hello = control.receive("HELLO");
            int size = Integer.parseInt(hello[1]);
            int mtu = Integer.parseInt(hello[2]);
            boolean read = hello[3].equals("1");
            try (UdpEndpoint endpoint = new UdpEndpoint(o.bind(), o.udpPort(), o.busyPoll())) {
                String summary;
                if (o.latency()) {
                    PingServer s = new PingServer(endpoint);
                    endpoint.start(s, s::tick);
                    control.send("READY", endpoint.port());
                    control.receive("DONE");
                    long answered = endpoint.loop().submit(s::answered).get();
                    control.send("COUNTS", answered, answered);
                    summary = "answered " + answered + " probes";
                } else {
                    StreamServer s = new StreamServer(endpoint, read, size, mtu);
                    endpoint.start(s, s::tick);
                    control.send("READY", endpoint.port());
                    control.receive("DONE");
                    long[] counts = endpoint.loop().submit(() -> new long[] {s.receivedDatagrams(), s.sentDatagrams()}).get();
                    control.send("COUNTS", counts[0], counts[1]);
                    summary = "received " + counts[0] + " datagrams, sent " + counts[1];
                }
                reportDrops(endpoint);
                out.println(" " + name + " server: " + summary);
            }
        }
    }

    private void client() throws IOException, InterruptedException, ExecutionException {
        try (UdpEndpoint endpoint = new UdpEndpoint(o.bind(), o.udpPort(), o.busyPoll());
             ControlChannel control = ControlChannel.connect(o.bind(), o.server(), o.port())) {
            control.send("HELLO", o.size(), o.mtu(), o.read() ? 1 : 0);
            int peerPort = Integer.parseInt(control.receive("READY")[1]);
            byte[] peer16 = UdpEndpoint.toBytes16(o.server());
            out.println(LineFormat.banner(o, name, "client: " + o.bind() + " -> " + o.server() + " UDP port " + peerPort));
            if (o.latency()) {
                PingClient c = new PingClient(o, endpoint, peer16, peerPort);
                endpoint.start(c, c::tick);
                endpoint.loop().execute(c::start);
                c.done().get();
                long[] rtt = endpoint.loop().submit(c::roundTrips).get();
                int resends = endpoint.loop().submit(c::resends).get();
                control.send("DONE", rtt.length);
                control.receive("COUNTS");
                BaselineReport.latency(out, o.size(), rtt);
                if (resends > 0) {
                    err.println("jroce udp_lat: warning: " + resends + " probes or answers were lost and sent again");
                }
            } else {
                StreamClient c = new StreamClient(o, endpoint, peer16, peerPort);
                endpoint.start(c, c::tick);
                endpoint.loop().execute(c::start);
                c.done().get();
                StreamResult r = endpoint.loop().submit(c::result).get();
                control.send("DONE", r.sentDatagrams());
                String[] counts = control.receive("COUNTS");
                long serverReceived = Long.parseLong(counts[1]);
                long serverSent = Long.parseLong(counts[2]);
                long iterations = r.messages(); // every flow's, as the twins count with -q
                BaselineReport.bandwidth(out, o.size(), iterations, r.peakMessagesPerSec(), r.messagesPerSec(),
                    o.reportGbits());
                long lost = (r.sentDatagrams() - serverReceived) + (serverSent - r.receivedDatagrams());
                if (lost > 0) {
                    err.printf("jroce udp_bw: warning: %d datagrams lost: the socket buffers overflowed; raise"
                        + " net.core.rmem_max (docs/udp-transport.md)%n", lost);
                }
                if (r.stalls() > 0) {
                    err.printf("jroce udp_bw: warning: %d stalls: no acknowledgement for %.0f ms, %d datagrams in"
                        + " flight written off (lost, or the machine is too busy)%n",
                        r.stalls(), StreamClient.STALL_NS / 1e6, r.lostDatagrams());
                }
            }
            reportDrops(endpoint);
        }
    }

    private void reportDrops(UdpEndpoint endpoint) {
        Map<String, Long> drops = endpoint.drops();
        if (!drops.isEmpty()) {
            err.println("jroce " + name + ": warning: the transport dropped " + drops);
        }
    }
}
