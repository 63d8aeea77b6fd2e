package io.jroce.rnic.cm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Optional;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * Address resolution's choice of device: the owner of the address, else the host route's source; and
 * the wildcard listeners a device takes on when it registers.
 */
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

    /**
     * A device opened while a wildcard listener listens is listened on when open() returns: its socket
     * receives already, and a REQ read before the listen was in place got REJ 8 (the listen used to be
     * queued on the device's I/O thread, whose event loop reads the socket before it runs its tasks).
     */
    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aDeviceOpenedAfterAWildcardListenIsListenedOnWhenOpenReturns(ProgressMode mode) throws Exception {
        int port = freePort();
        RdmaEventChannel ch = RdmaCm.createEventChannel();
        RdmaCmId listener = ch.createId(PortSpace.TCP);
        try (RdmaDevice first = SoftRnic.builder().name("first").address("127.0.0.1").udpPort(port)
            .progressMode(mode).open()) {
            listener.bindAddr(new InetSocketAddress("0.0.0.0", 7391));
            listener.listen(4);
            long serviceId = PortSpace.TCP.serviceId(7391);
            assertSame(listener, CmDevices.owning(InetAddress.getByName("127.0.0.1")).listener(serviceId));
            try (RdmaDevice later = SoftRnic.builder().name("later").address("127.0.0.3").udpPort(port)
                .progressMode(mode).open()) {
                assertSame(listener, CmDevices.owning(InetAddress.getByName("127.0.0.3")).listener(serviceId),
                    "listened on before open() returned");
            }
            listener.close();
            assertNull(CmDevices.owning(InetAddress.getByName("127.0.0.1")).listener(serviceId), "stopped");
        } finally {
            ch.close();
        }
    }

    /**
     * A thread interrupted while it opens a device, as a test's cancelled run is, still gets the
     * device (the wildcard listeners' listen on it gives up its wait, keeping the interrupt), so that
     * the device is closed and leaves the registry: one left behind took the address of every later
     * device on it (a twin's server then listened on the stale device and its clients got REJ 8).
     */
    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void anInterruptedOpenLeavesNoDeviceBehind(ProgressMode mode) throws Exception {
        int port = freePort();
        RdmaEventChannel ch = RdmaCm.createEventChannel();
        RdmaCmId listener = ch.createId(PortSpace.TCP);
        try (RdmaDevice first = SoftRnic.builder().name("first").address("127.0.0.1").udpPort(port)
            .progressMode(mode).open()) {
            listener.bindAddr(new InetSocketAddress("0.0.0.0", 7392));
            listener.listen(4);
            Thread.currentThread().interrupt();
            RdmaDevice later;
            try {
                later = SoftRnic.builder().name("later").address("127.0.0.3").udpPort(port).progressMode(mode).open();
            } finally {
                Thread.interrupted(); // clears it for the rest of the test, whatever open did with it
            }
            try (RdmaDevice d = later) {
                assertSame(d, CmDevices.owning(InetAddress.getByName("127.0.0.3")).device);
            }
            assertNull(CmDevices.owning(InetAddress.getByName("127.0.0.3")), "closed: out of the registry");
        } finally {
            listener.close();
            ch.close();
        }
    }
}
