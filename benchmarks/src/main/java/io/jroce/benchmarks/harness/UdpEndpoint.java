package io.jroce.benchmarks.harness;

import io.jroce.rnic.Configuration;
import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.transport.PollingHint;
import io.jroce.stack.transport.RocePacketHandler;
import io.jroce.stack.udp.UdpTransport;
import io.netty.channel.EventLoop;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;

/**
 * One baseline process's socket: a {@link UdpTransport} configured exactly as {@code SoftRnic}
 * configures the RNIC's (4 MiB socket buffers, UDP GSO and GRO unless {@code -Djroce.gso=false} /
 * {@code -Djroce.gro=false} turn them off for both, the transport's default send queue and
 * datagram size), with the same 0.5 ms timer tick on its event loop, so that a baseline and an
 * RNIC differ only in what runs on that loop.
 */
final class UdpEndpoint implements AutoCloseable {
    /** SoftRnic's SO_RCVBUF/SO_SNDBUF request. */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;
    /** SoftRnic's timer tick. */
    static final long TICK_US = 500;
    /** The longest packet a baseline sends: a 4096-byte payload after the longest header chain. */
    static final int MAX_PACKET = 4096 + 64;

    private final UdpTransport transport;
    private final byte[] local16;

    UdpEndpoint(String bind, int udpPort, boolean busyPoll) {
        this.transport = UdpTransport.builder().localAddress(bind).port(udpPort)
            .socketBufferSize(SOCKET_BUFFER_BYTES)
            .gso(Configuration.gso())
            .gro(Configuration.gro())
            // --busy-poll: the event loop never sleeps (polls, yielding), to compare with the RNIC's
            // busy polling while its application waits for a message.
            .pollingHint(busyPoll ? PollingHint.always() : null).build();
        this.local16 = toBytes16(bind);
    }

    /** Starts delivering datagrams to {@code handler} and calling {@code tick} every 0.5 ms, on the event loop. */
    void start(RocePacketHandler handler, Runnable tick) {
        transport.start(handler);
        transport.eventLoop().scheduleAtFixedRate(tick, TICK_US, TICK_US, TimeUnit.MICROSECONDS);
    }

    EventLoop loop() {
        return transport.eventLoop();
    }

    /** Queues one datagram (the transport appends the ICRC); on the event loop. */
    boolean send(DirectBuffer packet, int length, byte[] dst16, int dstPort) {
        return transport.send(packet, 0, length, local16, dst16, dstPort);
    }

    void flush() {
        transport.flush();
    }

    int port() {
        return transport.port();
    }

    /** Datagrams the transport dropped (bad ICRC, truncated, send failures...), by counter name. */
    Map<String, Long> drops() {
        Map<String, Long> drops = new TreeMap<>();
        transport.counters().snapshot().forEach((name, n) -> {
            if (name.startsWith("drop_") && n > 0) {
                drops.put(name, n);
            }
        });
        return drops;
    }

    static byte[] toBytes16(String ipLiteral) {
        try {
            return IpAddresses.toBytes16(InetAddress.getByName(ipLiteral));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + ipLiteral, e);
        }
    }

    @Override
    public void close() {
        transport.close();
    }
}
