package io.jroce.stack.udp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.BeforeAll;

/** The suite on native epoll, reading up to 8 datagrams per recvmmsg (the default). */
class EpollUdpTransportTest extends AbstractUdpTransportTest {
    @BeforeAll
    static void epollAvailable() {
        assumeTrue(Epoll.isAvailable(), () -> "native epoll unavailable: " + Epoll.unavailabilityCause());
    }

    @Override
    IoMode ioMode() {
        return IoMode.EPOLL;
    }
}
