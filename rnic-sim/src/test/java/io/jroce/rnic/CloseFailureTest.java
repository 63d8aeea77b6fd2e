package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.DatagramSocket;
import java.net.InetAddress;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.core.SoftDevice;
import io.jroce.verbs.RdmaDevice;

/**
 * A close that fails half way still releases the device: its socket closes and its RDMA CM
 * registration goes, so a new device can open on the same address and port. Before, a throwing
 * close hook skipped the rest and left the socket bound for the life of the JVM.
 */
class CloseFailureTest {
    @Test
    void aThrowingCloseHookStillClosesTheSocket() throws Exception {
        int port;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        RdmaDevice first = SoftRnic.builder().name("close-hook").address("127.0.0.1").udpPort(port).jmx(false).open();
        ((SoftDevice) first).onClose(() -> {
            throw new IllegalStateException("a hook failed");
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, first::close);
        assertEquals("a hook failed", e.getMessage());
        try (RdmaDevice again = SoftRnic.builder().name("close-hook").address("127.0.0.1").udpPort(port).jmx(false)
                 .open()) {
            assertEquals("close-hook", again.name(), "the port was free again");
        }
    }
}
