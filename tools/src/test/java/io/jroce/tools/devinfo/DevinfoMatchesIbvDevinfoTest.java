package io.jroce.tools.devinfo;

import static io.jroce.tools.cmcommon.TwinAddresses.freeUdpPort;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jroce.testsupport.DevinfoComparison;
import io.jroce.tools.CommandRunner;
import io.jroce.tools.ExitStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code jroce devinfo} against ibv_devinfo's output on a real rxe device (captured in the interop
 * image's guest, rdma-core of Debian 12): every line, label and tab the same; values differ only
 * where {@link DevinfoComparison#JROCE_VALUES} says why. The device has two addresses, as the
 * guest's rxe0 has two GIDs.
 */
class DevinfoMatchesIbvDevinfoTest {
    @Test
    void devinfoPrintsWhatIbvDevinfoPrints() throws Exception {
        assertMatches("rxe-ibv_devinfo.txt");
    }

    @Test
    void devinfoVerbosePrintsWhatIbvDevinfoVerbosePrints() throws Exception {
        assertMatches("rxe-ibv_devinfo-v.txt", "-v");
    }

    /** The comparison itself fails on a value no reason allows, a changed label and a missing line. */
    @Test
    void theComparisonCatchesWhatMustNotDiffer() throws Exception {
        String rxe = resource("rxe-ibv_devinfo.txt");
        assertEquals(List.of(), DevinfoComparison.differences(rxe, rxe, DevinfoComparison.JROCE_VALUES));
        assertEquals(List.of("line 9: phys_port_cnt: rxe 1, jroce 2"), DevinfoComparison.differences(rxe,
            rxe.replace("phys_port_cnt:\t\t\t1", "phys_port_cnt:\t\t\t2"), DevinfoComparison.JROCE_VALUES));
        assertEquals(List.of("line 14: rxe has '\\t\\t\\tsm_lid:\\t\\t\\t0', jroce '\\t\\t\\tsm_lid:\\t\\t0'"),
            DevinfoComparison.differences(rxe, rxe.replace("sm_lid:\t\t\t", "sm_lid:\t\t"), DevinfoComparison.JROCE_VALUES));
        assertEquals("line 16: rxe has '\\t\\t\\tport_lmc:\\t\\t0x00', jroce '\\t\\t\\tlink_layer:\\t\\tEthernet'",
            DevinfoComparison.differences(rxe, rxe.replace("\t\t\tport_lmc:\t\t0x00\n", ""),
                DevinfoComparison.JROCE_VALUES).get(0));
        assertEquals(List.of(), DevinfoComparison.differences(rxe, rxe.replace("0042:acff:fe11:0002", "0200:00ff:fe7f:0001"),
            DevinfoComparison.JROCE_VALUES), "node_guid and sys_image_guid may differ");
    }

    private static void assertMatches(String capture, String... flags) throws Exception {
        String[] args = new String[flags.length + 7];
        args[0] = "devinfo";
        System.arraycopy(flags, 0, args, 1, flags.length);
        System.arraycopy(new String[] {"--bind", "127.0.0.1", "--bind", "::1", "--udp-port",
            Integer.toString(freeUdpPort())}, 0, args, 1 + flags.length, 6);
        CommandRunner r = CommandRunner.run(args);
        assertEquals(ExitStatus.OK, r.status(), r.transcript());
        assertEquals(List.of(), DevinfoComparison.differences(resource(capture), r.out(), DevinfoComparison.JROCE_VALUES),
            r.transcript());
    }

    static String resource(String name) throws IOException {
        try (InputStream in = DevinfoMatchesIbvDevinfoTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
