package io.jroce.tools.devinfo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.pcap.IcrcCheck;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevinfoCaptureTest {
    @TempDir
    Path dir;

    @Test
    void aDeviceThatSentNothingLeavesAnEmptyCapture() throws Exception {
        Path pcap = dir.resolve("devinfo.pcap");
        int port;
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            port = s.getLocalPort();
        }
        CommandRunner r = CommandRunner.run("devinfo", "--port", Integer.toString(port), "--pcap", pcap.toString());
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertEquals(24, Files.size(pcap), "the pcap file header, no frames");
        assertEquals(0, IcrcCheck.readVerified(pcap).size());
    }

    /** The capture file is opened before any socket is bound, so the port does not matter. */
    @Test
    void anUnwritableCaptureFileIsAClearError() throws Exception {
        Path pcap = dir.resolve("no/such/dir/devinfo.pcap");
        CommandRunner r = CommandRunner.run("devinfo", "--port", "4791", "--pcap", pcap.toString());
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        assertTrue(r.err().contains("cannot write the capture file " + pcap), r.transcript());
    }
}
