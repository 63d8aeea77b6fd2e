package io.jroce.stack.udp;

import io.jroce.stack.transport.IpAddresses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.udp.AbstractUdpTransportTest.Collector;
import io.jroce.stack.udp.AbstractUdpTransportTest.Peer;
import io.netty.channel.epoll.Epoll;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An epoll transport and a NIO one talk to each other; the socket options are really set. */
class MixedIoModeTest {
    private final List<UdpTransport> open = new ArrayList<>();

    @BeforeAll
    static void epollAvailable() {
        assumeTrue(Epoll.isAvailable(), () -> "native epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @AfterEach
    void close() {
        open.forEach(UdpTransport::close);
    }

    private Peer peer(String address, IoMode mode) {
        UdpTransport t = UdpTransport.builder().localAddress(address).port(0).ioMode(mode).build();
        open.add(t);
        Collector c = new Collector();
        t.start(c);
        return new Peer(t, c, IpAddresses.toBytes16(t.localAddresses().get(0).getAddress()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void nioAndEpollExchangePackets(String address) throws Exception {
        Peer nio = peer(address, IoMode.NIO);
        Peer epoll = peer(address, IoMode.EPOLL);
        Random rnd = new Random(2);
        for (int i = 0; i < 10; i++) {
            byte[] p = AbstractUdpTransportTest.packet(rnd, 12 + rnd.nextInt(4000));
            assertTrue(nio.send(p, epoll));
            assertArrayEquals(p, epoll.collector().take().packet());
            assertTrue(epoll.send(p, nio));
            assertArrayEquals(p, nio.collector().take().packet());
        }
        for (Peer p : new Peer[] {nio, epoll}) {
            assertEquals(0, p.transport().counters().get(Counter.DROP_BAD_ICRC));
            assertEquals(0, p.transport().ipv4IdRecoveries(), "neither Java end sees or uses the kernel's IP ID");
        }
    }

    @Test
    void epollSocketsCarryTheOptionsRxeNeeds() {
        UdpTransport t = UdpTransport.builder().localAddress("127.0.0.1").localAddress("::1").port(0).build();
        open.add(t);
        assertEquals(IoMode.EPOLL, t.ioMode(), "AUTO picks epoll where it is available");
        assertEquals(UdpTransport.IP_PMTUDISC_DO, t.channels().get(0).config().getOption(UdpTransport.IP_MTU_DISCOVER));
        assertEquals(1, t.channels().get(1).config().getOption(UdpTransport.UDP_NO_CHECK6_RX));
    }

    @Test
    void badConfigurationIsRejectedUpFront() {
        UdpTransport.Builder b = UdpTransport.builder();
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("localhost"));
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("0.0.0.0"));
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("::"));
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("224.0.0.1"));
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("1.2.3"));
        assertThrows(IllegalArgumentException.class, () -> b.port(65536));
        assertThrows(IllegalStateException.class, b::build);
        b.localAddress("[::1]");
        assertThrows(IllegalArgumentException.class, () -> b.localAddress("::1"));
        UdpTransportException e = assertThrows(UdpTransportException.class,
            () -> UdpTransport.builder().localAddress("192.0.2.1").port(0).build());
        assertTrue(e.getMessage().contains("192.0.2.1"), e.getMessage());
    }
}
