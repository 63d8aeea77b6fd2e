package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.jroce.verbs.AddressInUseException;
import io.jroce.verbs.TransportException;

/**
 * A device that cannot open says why with the exception's type: {@link AddressInUseException} when
 * another socket holds its UDP port, a plain {@link TransportException} otherwise (a capture file
 * that cannot be written), so that a tool hints at the port only when the port is the problem.
 */
class OpenFailureTest {
    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aPortHeldByAnotherSocketIsAnAddressInUse(ProgressMode mode) throws Exception {
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            int port = holder.getLocalPort();
            AddressInUseException e = assertThrows(AddressInUseException.class,
                () -> SoftRnic.builder().name("held").address("127.0.0.1").udpPort(port).progressMode(mode).open());
            assertTrue(e.getMessage().startsWith("cannot open device held on [127.0.0.1] port " + port), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aCaptureFileThatCannotBeWrittenIsNoAddressInUse(ProgressMode mode, @TempDir Path dir) throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            port = probe.getLocalPort();
        }
        Path pcap = dir.resolve("missing").resolve("x.pcap");
        TransportException e = assertThrows(TransportException.class, () -> SoftRnic.builder().name("cap")
            .address("127.0.0.1").udpPort(port).progressMode(mode).pcap(pcap).open());
        assertFalse(e instanceof AddressInUseException, e.toString());
        assertTrue(e.getMessage().contains("cannot write the capture file " + pcap), e.getMessage());
        assertEquals(TransportException.class, e.getClass());
    }
}
