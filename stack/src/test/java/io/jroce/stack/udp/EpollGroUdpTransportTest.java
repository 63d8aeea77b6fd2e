package io.jroce.stack.udp;

/** The suite on native epoll with UDP GRO: one recvmsg per coalesced run, split into datagrams. */
class EpollGroUdpTransportTest extends EpollUdpTransportTest {
    @Override
    void configure(UdpTransport.Builder builder) {
        builder.gro(true);
    }
}
