package io.jroce.rnic.cm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.RdmaDevice;

/** Address resolution's choice of device: the owner of the address, else the host route's source. */
class CmDevicesTest {
    private static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Test
    void theHostRoutesSourceDecidesBetweenDevicesThatDoNotOwnTheDestination() throws Exception {
        InetAddress destination = InetAddress.getByName("127.0.0.5");
        // Linux routes all of 127/8 through lo from its primary address.
        assertEquals(Optional.of(InetAddress.getByName("127.0.0.1")), HostRoute.sourceFor(destination));
        int port = freePort();
        // Registered first, so the old rule (the first device of the family) picked it.
        try (RdmaDevice other = SoftRnic.builder().name("other").address("127.0.0.2").udpPort(port).open();
             RdmaDevice routed = SoftRnic.builder().name("routed").address("127.0.0.1").udpPort(port).open()) {
            assertSame(routed, CmDevices.reaching(destination).device);
            assertSame(other, CmDevices.reaching(InetAddress.getByName("127.0.0.2")).device, "the owner first");
            assertSame(routed, CmDevices.owning(InetAddress.getByName("127.0.0.1")).device);
        }
    }
}
