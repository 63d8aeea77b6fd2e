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
        -1L, 0xfffff000L, 1 << 17, 1 << 14, 32, 1 << 14, 1 << 15, 1 << 16, 1 << 16, 128, 128, 240, "ATOMIC_HCA", 1, 8192, 56, 0x70000,
        0x020000fffe7f0001L, 0, 0x1006 | 1 << 30, 32, 1 << 23, 1 << 16, 5, 7, 1 << 14, 32, 1, 15);
    private static final PortAttributes PORT = new PortAttributes("PORT_ACTIVE", Mtu.MTU_4096, Mtu.MTU_1024, 2,
        "Ethernet", 0, 0x80000000L, 1, 0x10000, 1, 1, 1, 5);
    private static final List<Gid> GIDS = List.of(Gid.parse("127.0.0.1"), Gid.parse("::1"));

    private static String format(boolean verbose) {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("sent_pkts", 3L);
        counters.put("drop_not_for_this_device", 0L);
        counters.put("drop_bad_qkey", 2L);
        return DevinfoPrinter.format("jroce0", DEVICE, PORT, GIDS, counters, verbose, verbose);
    }

    @Test
    void printsTheLinesOfIbvDevinfoAtItsColumns() {
        String text = format(false);
        assertTrue(text.startsWith("hca_id:\tjroce0\n"
            + "\ttransport:\t\t\tInfiniBand (0)\n"
            + "\tfw_ver:\t\t\t\t0.1.0\n"
            + "\tnode_guid:\t\t\t0200:00ff:fe7f:0001\n"
            + "\tsys_image_guid:\t\t\t0200:00ff:fe7f:0001\n"
            + "\tvendor_id:\t\t\t0xffffff\n"
            + "\tvendor_part_id:\t\t\t0\n"
            + "\thw_ver:\t\t\t\t0x0\n"
            + "\tphys_port_cnt:\t\t\t1\n"
            + "\t\tport:\t1\n"
            + "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
            + "\t\t\tmax_mtu:\t\t4096 (5)\n"
            + "\t\t\tactive_mtu:\t\t1024 (3)\n"
            + "\t\t\tsm_lid:\t\t\t0\n"
            + "\t\t\tport_lid:\t\t0\n"
            + "\t\t\tport_lmc:\t\t0x00\n"
            + "\t\t\tlink_layer:\t\tEthernet\n"
            + "\n"), text);
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
        assertTrue(text.contains("\t\t\tGID[  0]:\t\t::ffff:127.0.0.1, RoCE v2\n"), text);
        assertTrue(text.contains("\t\t\tGID[  1]:\t\t::1, RoCE v2\n"), text);
        assertTrue(text.contains("\tcounters:\n\t\tsent_pkts:\t\t\t3\n\t\tdrop_not_for_this_device:\t0\n"), text);
    }

    /** The flags ibv_devinfo names, one per line under the value, then the bits it has no name for. */
    @Test
    void capFlagsAreNamedAndUnknownBitsShownInHex() {
        assertTrue(format(true).contains("\tdevice_cap_flags:\t\t0x40001006\n"
            + "\t\t\t\t\tBAD_PKEY_CNTR\n"
            + "\t\t\t\t\tBAD_QKEY_CNTR\n"
            + "\t\t\t\t\tRC_RNR_NAK_GEN\n"
            + "\t\t\t\t\tUnknown flags: 0x40000000\n"
            + "\tmax_sge:\t\t\t32\n"), format(true));
    }

    /** The port's Q_Key violations are the device's drop_bad_qkey count. */
    @Test
    void qkeyViolationsComeFromTheDropCounter() {
        assertTrue(format(true).contains("\t\t\tqkey_viol_cntr:\t\t0x2\n"), format(true));
    }

    @Test
    void guidIsFourGroupsOfFourHexDigits() {
        assertEquals("0000:0000:0000:0001", DevinfoPrinter.guid(1));
        assertEquals("ffff:0000:0000:0000", DevinfoPrinter.guid(0xffff000000000000L));
    }
}
