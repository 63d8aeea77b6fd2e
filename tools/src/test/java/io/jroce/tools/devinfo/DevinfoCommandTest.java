package io.jroce.tools.devinfo;

import static io.jroce.tools.cmcommon.TwinAddresses.freeUdpPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevinfoCommandTest {
    @Test
    void printsARealDevice() throws Exception {
        CommandRunner r = CommandRunner.run("devinfo", "-v", "-c", "-d", "jroce7", "--bind", "127.0.0.1", "--bind", "127.0.0.3",
            "--port", "24795");
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertTrue(r.out().startsWith("hca_id:\tjroce7\n"), r.transcript());
        assertTrue(r.out().contains("\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"), r.transcript());
        assertTrue(r.out().contains("\t\t\tlink_layer:\t\tEthernet\n"), r.transcript());
        // the GIDs as ibv_devinfo prints a RoCE device's (inet_ntop and the GID type)
        assertTrue(r.out().contains("GID[  0]:\t\t::ffff:127.0.0.1, RoCE v2\n"), r.transcript());
        assertTrue(r.out().contains("GID[  1]:\t\t::ffff:127.0.0.3, RoCE v2\n"), r.transcript());
        assertTrue(r.out().contains("\t\tsent_pkts:\t\t\t0\n"), r.transcript());
        // the connection manager's counts, by message, as the kernel's cm_rx_msgs / cm_tx_msgs
        for (String m : new String[] {"req", "mra", "rej", "rep", "rtu", "dreq", "drep"}) {
            assertTrue(r.out().contains("\t\tcm_rx_" + m + ":\t"), r.transcript());
            assertTrue(r.out().contains("\t\tcm_tx_" + m + ":\t"), r.transcript());
        }
        assertTrue(r.out().contains("\t\tcm_retransmits:\t\t\t0\n"), r.transcript());
    }

    @Test
    void saysClearlyWhenThePortIsTaken() throws Exception {
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 24796))) {
            CommandRunner r = CommandRunner.run("devinfo", "--port", Integer.toString(holder.getLocalPort()));
            assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
            List<String> lines = r.err().lines().toList();
            assertEquals(2, lines.size(), r.transcript());
            // the progress mode the device runs in (the default, or -Djroce.progress) may name itself before the cause
            assertTrue(lines.get(0).matches("jroce devinfo: error: cannot open device jroce0 on \\[127\\.0\\.0\\.1] port 24796"
                + "( in the invoker progress mode)?: cannot bind a UDP socket to 127\\.0\\.0\\.1:24796: .*Address already in use"),
                r.transcript());
            assertEquals("jroce devinfo: UDP port 24796 is taken: another jroce, or the kernel's rxe, may hold it; choose"
                + " another with --udp-port, or run this one on another address with --bind 127.0.0.2", lines.get(1));
        }
    }

    /** A capture file that cannot be written is said so, without a hint about ports, which would mislead. */
    @Test
    void aCaptureThatCannotBeWrittenIsNotReportedAsAPortProblem(@TempDir Path dir) throws Exception {
        String pcap = dir.resolve("no-such-directory").resolve("devinfo.pcap").toString();
        CommandRunner r = CommandRunner.run("devinfo", "--udp-port", Integer.toString(freeUdpPort()), "--pcap", pcap);
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.transcript());
        assertTrue(lines.get(0).startsWith("jroce devinfo: error: cannot open device jroce0 on [127.0.0.1] port "),
            r.transcript());
        assertTrue(lines.get(0).contains("cannot write the capture file " + pcap), r.transcript());
    }
}
