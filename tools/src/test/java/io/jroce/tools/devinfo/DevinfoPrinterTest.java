package io.jroce.tools.devinfo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.PortAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DevinfoPrinterTest {
    private static final DeviceAttributes DEVICE = new DeviceAttributes("0.1.0", 0x020000fffe7f0001L, 0xffffff, 0,
        -1L, 0xfffff000L, 1 << 17, 1 << 14, 32, 1 << 14, 1 << 15, 1 << 16, 1 << 16, 128, 128, 240, "ATOMIC_HCA", 1, 8192, 56, 0x70000);
    private static final PortAttributes PORT = new PortAttributes("PORT_ACTIVE", Mtu.MTU_4096, Mtu.MTU_1024, 2,
        "Ethernet", 0, 0x80000000L, 1);
    private static final List<Gid> GIDS = List.of(Gid.parse("127.0.0.1"), Gid.parse("::1"));

    private static String format(boolean verbose) {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("sent_pkts", 3L);
        counters.put("drop_not_for_this_device", 0L);
        return DevinfoPrinter.format("jroce0", DEVICE, PORT, GIDS, counters, verbose);
    }

    @Test
    void printsTheLinesOfIbvDevinfoAtItsColumns() {
        String text = format(false);
        assertTrue(text.startsWith("hca_id:\tjroce0\n"
            + "\ttransport:\t\t\tInfiniBand (0)\n"
            + "\tfw_ver:\t\t\t\t0.1.0\n"
            + "\tnode_guid:\t\t\t0200:00ff:fe7f:0001\n"
            + "\tvendor_id:\t\t\t0xffffff\n"
            + "\tvendor_part_id:\t\t\t0\n"
            + "\tphys_port_cnt:\t\t\t1\n"
            + "\t\tport:\t1\n"
            + "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
            + "\t\t\tmax_mtu:\t\t4096 (5)\n"
            + "\t\t\tactive_mtu:\t\t1024 (3)\n"
            + "\t\t\tport_lid:\t\t0\n"
            + "\t\t\tlink_layer:\t\tEthernet\n"), text);
        assertFalse(text.contains("max_qp"), text);
        assertFalse(text.contains("GID["), text);
    }

    @Test
    void verboseAddsAttributesGidsAndCounters() {
        String text = format(true);
        assertTrue(text.contains("\tmax_mr_size:\t\t\t0xffffffffffffffff\n"), text);
        assertTrue(text.contains("\tmax_qp_init_rd_atom:\t\t128\n"), text);
        assertTrue(text.contains("\tatomic_cap:\t\t\tATOMIC_HCA (1)\n"), text);
        assertTrue(text.contains("\t\t\tgid_tbl_len:\t\t2\n"), text);
        assertTrue(text.contains("\t\t\tGID[  0]:\t\t0000:0000:0000:0000:0000:ffff:7f00:0001\n"), text);
        assertTrue(text.contains("\t\t\tGID[  1]:\t\t0000:0000:0000:0000:0000:0000:0000:0001\n"), text);
        assertTrue(text.contains("\tcounters:\n\t\tsent_pkts:\t\t\t3\n\t\tdrop_not_for_this_device:\t0\n"), text);
    }

    @Test
    void guidIsFourGroupsOfFourHexDigits() {
        assertEquals("0000:0000:0000:0001", DevinfoPrinter.guid(1));
        assertEquals("ffff:0000:0000:0000", DevinfoPrinter.guid(0xffff000000000000L));
    }
}
