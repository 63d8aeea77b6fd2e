package io.jroce.stack.udp;

/** The suite on native epoll reading one datagram per recvmsg. */
class EpollSingleReadUdpTransportTest extends EpollUdpTransportTest {
    @Override
    void configure(UdpTransport.Builder builder) {
        builder.receiveBatch(1);
    }
}
