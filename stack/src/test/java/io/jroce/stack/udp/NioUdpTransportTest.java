package io.jroce.stack.udp;

/** The suite on the NIO fallback (IPv4 IDs are the kernel's, which no Java receiver sees). */
class NioUdpTransportTest extends AbstractUdpTransportTest {
    @Override
    IoMode ioMode() {
        return IoMode.NIO;
    }
}
