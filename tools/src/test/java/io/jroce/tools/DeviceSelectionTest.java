package io.jroce.tools;

import static io.jroce.tools.cmcommon.TwinAddresses.freeUdpPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * -d names a device of the registry in every command that has it, and devinfo lists every device.
 * The tools module's tests run with -Djroce.devices=src/test/resources/test-devices.
 */
class DeviceSelectionTest {
    private static final String KNOWN = "known devices: jroce0, jroce7, rxe0, mlx5_0 (-Djroce.devices=";

    @Test
    void devinfoOfAnUnknownDeviceSaysWhatIbvDevinfoSaysAndListsTheKnownOnes() throws Exception {
        CommandRunner r = CommandRunner.run("devinfo", "-d", "nosuch");
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.transcript());
        assertEquals("IB device 'nosuch' wasn't found", lines.get(0));
        assertTrue(lines.get(1).startsWith(KNOWN) && lines.get(1).endsWith("test-devices)"), r.transcript());
        assertEquals("", r.out());
    }

    @Test
    void pingpongOfAnUnknownDeviceSaysWhatIbvRcPingpongSays() throws Exception {
        CommandRunner r = CommandRunner.run("rc_pingpong", "-d", "nosuch");
        assertEquals(ExitStatus.FAILED, r.status(), r.transcript());
        List<String> lines = r.err().lines().toList();
        assertEquals("jroce rc_pingpong: error: IB device nosuch not found", lines.get(0), r.transcript());
        assertTrue(lines.get(1).startsWith("jroce rc_pingpong: error: " + KNOWN), r.transcript());
    }

    /** perftest's ctx_find_dev line, then its main()'s (src/perftest_resources.c, src/write_bw.c). */
    @Test
    void perftestOfAnUnknownDeviceSaysWhatPerftestSays() throws Exception {
        CommandRunner r = CommandRunner.run("write_bw", "-d", "nosuch");
        List<String> lines = r.err().lines().toList();
        assertEquals(3, lines.size(), r.transcript());
        assertEquals("IB device nosuch not found", lines.get(0));
        assertTrue(lines.get(1).startsWith(KNOWN), r.transcript());
        assertEquals(" Unable to find the Infiniband/RoCE device", lines.get(2));
    }

    /** As ibv_devinfo prints every device: each block with its name, at the file's address and port. */
    @Test
    void devinfoWithoutDPrintsEveryDevice(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("devices"), "first 127.0.0.1 udp-port=" + freeUdpPort()
            + "\nsecond 127.0.0.2 udp-port=" + freeUdpPort() + "\n");
        String before = System.getProperty(DeviceRegistry.PROPERTY);
        System.setProperty(DeviceRegistry.PROPERTY, file.toString());
        try {
            CommandRunner r = CommandRunner.run("devinfo", "-v");
            assertEquals(ExitStatus.OK, r.status(), r.transcript());
            List<String> names = r.out().lines().filter(l -> l.startsWith("hca_id:")).toList();
            assertEquals(List.of("hca_id:\tfirst", "hca_id:\tsecond"), names, r.transcript());
            assertTrue(r.out().contains("GID[  0]:\t\t::ffff:127.0.0.2, RoCE v2\n"), r.transcript());
            CommandRunner one = CommandRunner.run("devinfo", "-d", "second");
            assertEquals(List.of("hca_id:\tsecond"), one.out().lines().filter(l -> l.startsWith("hca_id:")).toList(),
                one.transcript());
            // one capture file is one device's: the first, as without -d in every other command
            CommandRunner captured = CommandRunner.run("devinfo", "--pcap", dir.resolve("d.pcap").toString());
            assertEquals(List.of("hca_id:\tfirst"), captured.out().lines().filter(l -> l.startsWith("hca_id:")).toList(),
                captured.transcript());
        } finally {
            if (before == null) {
                System.clearProperty(DeviceRegistry.PROPERTY);
            } else {
                System.setProperty(DeviceRegistry.PROPERTY, before);
            }
        }
    }
}
