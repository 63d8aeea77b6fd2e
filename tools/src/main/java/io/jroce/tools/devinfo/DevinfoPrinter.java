package io.jroce.tools.devinfo;

import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.PortAttributes;
import java.util.List;
import java.util.Map;

/**
 * Formats a device the way ibv_devinfo does: the same labels, tab-aligned values at the same
 * columns (device lines at column 40, port lines at 48), enum values followed by their number.
 * Only what the verbs API reports is printed; the counters at the end are jroce's addition.
 */
final class DevinfoPrinter {
    private static final int DEVICE_COLUMN = 40;
    private static final int PORT_COLUMN = 48;
    /** ibv_devinfo prints transport_type; RoCE devices, rxe included, report IBV_TRANSPORT_IB. */
    private static final String TRANSPORT = "InfiniBand (0)";

    private final StringBuilder sb = new StringBuilder();

    private DevinfoPrinter() {
    }

    static String format(String name, DeviceAttributes device, PortAttributes port, List<Gid> gids,
                         Map<String, Long> counters, boolean verbose) {
        DevinfoPrinter p = new DevinfoPrinter();
        p.sb.append("hca_id:\t").append(name).append('\n');
        p.device(device, verbose);
        p.port(port, gids, verbose);
        if (verbose) {
            p.counters(counters);
        }
        p.sb.append('\n');
        return p.sb.toString();
    }

    private void device(DeviceAttributes d, boolean verbose) {
        line(1, "transport", DEVICE_COLUMN, TRANSPORT);
        if (!d.firmwareVersion().isEmpty()) {
            line(1, "fw_ver", DEVICE_COLUMN, d.firmwareVersion());
        }
        line(1, "node_guid", DEVICE_COLUMN, guid(d.nodeGuid()));
        line(1, "vendor_id", DEVICE_COLUMN, String.format("0x%04x", d.vendorId()));
        line(1, "vendor_part_id", DEVICE_COLUMN, Integer.toString(d.vendorPartId()));
        line(1, "phys_port_cnt", DEVICE_COLUMN, Integer.toString(d.physPortCount()));
        if (!verbose) {
            return;
        }
        line(1, "max_mr_size", DEVICE_COLUMN, "0x" + Long.toHexString(d.maxMrSize()));
        line(1, "page_size_cap", DEVICE_COLUMN, "0x" + Long.toHexString(d.pageSizeCap()));
        line(1, "max_qp", DEVICE_COLUMN, Integer.toString(d.maxQp()));
        line(1, "max_qp_wr", DEVICE_COLUMN, Integer.toString(d.maxQpWr()));
        line(1, "max_sge", DEVICE_COLUMN, Integer.toString(d.maxSge()));
        line(1, "max_cq", DEVICE_COLUMN, Integer.toString(d.maxCq()));
        line(1, "max_cqe", DEVICE_COLUMN, Integer.toString(d.maxCqe()));
        line(1, "max_mr", DEVICE_COLUMN, Integer.toString(d.maxMr()));
        line(1, "max_pd", DEVICE_COLUMN, Integer.toString(d.maxPd()));
        line(1, "max_qp_rd_atom", DEVICE_COLUMN, Integer.toString(d.maxQpRdAtom()));
        line(1, "max_qp_init_rd_atom", DEVICE_COLUMN, Integer.toString(d.maxQpInitRdAtom()));
        line(1, "atomic_cap", DEVICE_COLUMN, atomicCap(d.atomicCapability()));
        line(1, "max_inline_data", DEVICE_COLUMN, Integer.toString(d.maxInlineData()));
    }

    private void port(PortAttributes p, List<Gid> gids, boolean verbose) {
        sb.append("\t\tport:\t1\n");
        line(3, "state", PORT_COLUMN, p.state() + " (" + portState(p.state()) + ")");
        line(3, "max_mtu", PORT_COLUMN, mtu(p.maxMtu()));
        line(3, "active_mtu", PORT_COLUMN, mtu(p.activeMtu()));
        line(3, "port_lid", PORT_COLUMN, Integer.toString(p.lid()));
        line(3, "link_layer", PORT_COLUMN, p.linkLayer());
        if (!verbose) {
            return;
        }
        line(3, "max_msg_sz", PORT_COLUMN, "0x" + Long.toHexString(p.maxMessageSize()));
        line(3, "pkey_tbl_len", PORT_COLUMN, Integer.toString(p.pkeyTableLength()));
        line(3, "gid_tbl_len", PORT_COLUMN, Integer.toString(p.gidTableLength()));
        for (int i = 0; i < gids.size(); i++) {
            if (!gids.get(i).isZero()) {
                line(3, String.format("GID[%3d]", i), PORT_COLUMN, gids.get(i).toString());
            }
        }
    }

    private void counters(Map<String, Long> counters) {
        sb.append("\tcounters:\n");
        counters.forEach((name, value) -> line(2, name, PORT_COLUMN, Long.toString(value)));
    }

    /** {@code tabs} tabs, "label:", then tabs up to {@code column} (at least one), then the value. */
    private void line(int tabs, String label, int column, String value) {
        sb.append("\t".repeat(tabs)).append(label).append(':');
        int width = 8 * tabs + label.length() + 1;
        do {
            sb.append('\t');
            width = (width / 8 + 1) * 8;
        } while (width < column);
        sb.append(value).append('\n');
    }

    /** The GUID as four groups of four hex digits, as ibv_devinfo prints it. */
    static String guid(long guid) {
        return String.format("%04x:%04x:%04x:%04x", (guid >>> 48) & 0xffff, (guid >>> 32) & 0xffff,
            (guid >>> 16) & 0xffff, guid & 0xffff);
    }

    private static String mtu(Mtu mtu) {
        return mtu.bytes() + " (" + mtu.enumValue() + ")";
    }

    /** enum ibv_port_state. */
    private static int portState(String state) {
        return switch (state) {
            case "PORT_NOP" -> 0;
            case "PORT_DOWN" -> 1;
            case "PORT_INIT" -> 2;
            case "PORT_ARMED" -> 3;
            case "PORT_ACTIVE" -> 4;
            case "PORT_ACTIVE_DEFER" -> 5;
            default -> -1;
        };
    }

    /** enum ibv_atomic_cap. */
    private static String atomicCap(String cap) {
        return switch (cap) {
            case "ATOMIC_NONE" -> cap + " (0)";
            case "ATOMIC_HCA" -> cap + " (1)";
            case "ATOMIC_GLOB" -> cap + " (2)";
            default -> cap;
        };
    }
}
