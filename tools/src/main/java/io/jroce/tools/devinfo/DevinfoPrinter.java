package io.jroce.tools.devinfo;

import io.jroce.tools.pingpong.GidText;
import io.jroce.verbs.DeviceAttributes;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.PortAttributes;
import java.util.List;
import java.util.Map;

/**
 * Formats a device the way rdma-core's ibv_devinfo (libibverbs/examples/devinfo.c) prints an rxe
 * device: the same lines in the same order, the same labels and tabs, enum values followed by their
 * number. Values come from the device's {@link DeviceAttributes} and {@link PortAttributes}; what a
 * software RoCE device has none of (EE contexts, RD domains, raw QPs, FMRs, on-demand paging, TSO,
 * RSS, packet pacing, tag matching, a subnet manager) is printed as ibv_devinfo prints it for rxe.
 * The counters, which ibv_devinfo has no section for, come after the port under {@code --counters}.
 */
final class DevinfoPrinter {
    /** ibv_devinfo prints transport_type; RoCE devices, rxe included, report IBV_TRANSPORT_IB. */
    private static final String TRANSPORT = "InfiniBand (0)";
    /** rdma-core's enum ibv_device_cap_flags, bit by bit, in the order ibv_devinfo prints the names. */
    private static final String[] CAP_FLAG_NAMES = new String[32];

    static {
        String[] names = {"RESIZE_MAX_WR", "BAD_PKEY_CNTR", "BAD_QKEY_CNTR", "RAW_MULTI", "AUTO_PATH_MIG",
            "CHANGE_PHY_PORT", "UD_AV_PORT_ENFORCE", "CURR_QP_STATE_MOD", "SHUTDOWN_PORT", "INIT_TYPE",
            "PORT_ACTIVE_EVENT", "SYS_IMAGE_GUID", "RC_RNR_NAK_GEN", "SRQ_RESIZE", "N_NOTIFY_CQ"};
        System.arraycopy(names, 0, CAP_FLAG_NAMES, 0, names.length);
        CAP_FLAG_NAMES[17] = "MEM_WINDOW";
        CAP_FLAG_NAMES[18] = "UD_IP_CSUM";
        CAP_FLAG_NAMES[20] = "XRC";
        CAP_FLAG_NAMES[21] = "MEM_MGT_EXTENSIONS";
        CAP_FLAG_NAMES[23] = "MEM_WINDOW_TYPE_2A";
        CAP_FLAG_NAMES[24] = "MEM_WINDOW_TYPE_2B";
        CAP_FLAG_NAMES[25] = "RC_IP_CSUM";
        CAP_FLAG_NAMES[26] = "RAW_IP_CSUM";
        CAP_FLAG_NAMES[29] = "MANAGED_FLOW_STEERING";
    }

    private final StringBuilder sb = new StringBuilder();

    private DevinfoPrinter() {
    }

    /**
     * One device's block, as ibv_devinfo prints it, ending with the blank line after its port;
     * with {@code counters}, the device's counters between the port and that blank line.
     */
    static String format(String name, DeviceAttributes device, PortAttributes port, List<Gid> gids,
                         Map<String, Long> deviceCounters, boolean verbose, boolean counters) {
        DevinfoPrinter p = new DevinfoPrinter();
        p.f("hca_id:\t%s\n", name);
        p.device(device, verbose);
        p.port(port, gids, deviceCounters, verbose);
        if (counters) {
            p.counters(deviceCounters);
        }
        p.sb.append('\n');
        return p.sb.toString();
    }

    private void f(String format, Object... args) {
        sb.append(String.format(format, args));
    }

    private void device(DeviceAttributes d, boolean verbose) {
        f("\ttransport:\t\t\t%s\n", TRANSPORT);
        if (!d.firmwareVersion().isEmpty()) {
            f("\tfw_ver:\t\t\t\t%s\n", d.firmwareVersion());
        }
        f("\tnode_guid:\t\t\t%s\n", guid(d.nodeGuid()));
        f("\tsys_image_guid:\t\t\t%s\n", guid(d.sysImageGuid()));
        f("\tvendor_id:\t\t\t0x%04x\n", d.vendorId());
        f("\tvendor_part_id:\t\t\t%d\n", d.vendorPartId());
        f("\thw_ver:\t\t\t\t0x%X\n", d.hardwareVersion());
        f("\tphys_port_cnt:\t\t\t%d\n", d.physPortCount());
        if (!verbose) {
            return;
        }
        f("\tmax_mr_size:\t\t\t0x%x\n", d.maxMrSize());
        f("\tpage_size_cap:\t\t\t0x%x\n", d.pageSizeCap());
        f("\tmax_qp:\t\t\t\t%d\n", d.maxQp());
        f("\tmax_qp_wr:\t\t\t%d\n", d.maxQpWr());
        f("\tdevice_cap_flags:\t\t0x%08x\n", d.deviceCapFlags());
        capFlags(d.deviceCapFlags());
        f("\tmax_sge:\t\t\t%d\n", d.maxSge());
        f("\tmax_sge_rd:\t\t\t%d\n", d.maxSgeRd());
        f("\tmax_cq:\t\t\t\t%d\n", d.maxCq());
        f("\tmax_cqe:\t\t\t%d\n", d.maxCqe());
        f("\tmax_mr:\t\t\t\t%d\n", d.maxMr());
        f("\tmax_pd:\t\t\t\t%d\n", d.maxPd());
        f("\tmax_qp_rd_atom:\t\t\t%d\n", d.maxQpRdAtom());
        f("\tmax_ee_rd_atom:\t\t\t%d\n", 0);
        f("\tmax_res_rd_atom:\t\t%d\n", d.maxResRdAtom());
        f("\tmax_qp_init_rd_atom:\t\t%d\n", d.maxQpInitRdAtom());
        f("\tmax_ee_init_rd_atom:\t\t%d\n", 0);
        f("\tatomic_cap:\t\t\t%s\n", atomicCap(d.atomicCapability()));
        f("\tmax_ee:\t\t\t\t%d\n", 0);
        f("\tmax_rdd:\t\t\t%d\n", 0);
        f("\tmax_mw:\t\t\t\t%d\n", d.maxMw());
        f("\tmax_raw_ipv6_qp:\t\t%d\n", 0);
        f("\tmax_raw_ethy_qp:\t\t%d\n", 0);
        f("\tmax_mcast_grp:\t\t\t%d\n", d.maxMcastGrp());
        f("\tmax_mcast_qp_attach:\t\t%d\n", d.maxMcastQpAttach());
        f("\tmax_total_mcast_qp_attach:\t%d\n", d.maxTotalMcastQpAttach());
        f("\tmax_ah:\t\t\t\t%d\n", d.maxAh());
        f("\tmax_fmr:\t\t\t%d\n", 0);
        f("\tmax_srq:\t\t\t%d\n", d.maxSrq());
        if (d.maxSrq() != 0) {
            f("\tmax_srq_wr:\t\t\t%d\n", d.maxSrqWr());
            f("\tmax_srq_sge:\t\t\t%d\n", d.maxSrqSge());
        }
        f("\tmax_pkeys:\t\t\t%d\n", d.maxPkeys());
        f("\tlocal_ca_ack_delay:\t\t%d\n", d.localCaAckDelay());
        // no on-demand paging, timestamps, clock, TSO, RSS, work queues, pacing or tag matching
        sb.append("\tgeneral_odp_caps:\n");
        for (String t : new String[] {"rc", "uc", "ud", "xrc"}) {
            f("\t%s_odp_caps:\n\t\t\t\t\tNO SUPPORT\n", t);
        }
        sb.append("\tcompletion_timestamp_mask not supported\n");
        sb.append("\tcore clock not supported\n");
        // the extended flags repeat the 32 classic bits, and jroce sets none of the upper ones
        f("\tdevice_cap_flags_ex:\t\t0x%X\n", d.deviceCapFlags() & 0xFFFFFFFFL);
        sb.append("\ttso_caps:\n\t\tmax_tso:\t\t\t0\n");
        sb.append("\trss_caps:\n");
        sb.append("\t\tmax_rwq_indirection_tables:\t\t\t0\n");
        sb.append("\t\tmax_rwq_indirection_table_size:\t\t\t0\n");
        sb.append("\t\trx_hash_function:\t\t\t\t0x0\n");
        sb.append("\t\trx_hash_fields_mask:\t\t\t\t0x0\n");
        sb.append("\tmax_wq_type_rq:\t\t\t0\n");
        sb.append("\tpacket_pacing_caps:\n\t\tqp_rate_limit_min:\t0kbps\n\t\tqp_rate_limit_max:\t0kbps\n");
        sb.append("\ttag matching not supported\n");
        // one completion vector: every CQ of a device is served by the device's one progress thread
        f("\tnum_comp_vectors:\t\t%d\n", 1);
    }

    private void capFlags(int flags) {
        int unknown = flags;
        for (int bit = 0; bit < 32; bit++) {
            if (CAP_FLAG_NAMES[bit] != null && (flags & 1 << bit) != 0) {
                f("\t\t\t\t\t%s\n", CAP_FLAG_NAMES[bit]);
                unknown &= ~(1 << bit);
            }
        }
        if (unknown != 0) {
            f("\t\t\t\t\tUnknown flags: 0x%X\n", unknown);
        }
    }

    private void port(PortAttributes p, List<Gid> gids, Map<String, Long> counters, boolean verbose) {
        sb.append("\t\tport:\t1\n");
        f("\t\t\tstate:\t\t\t%s (%d)\n", p.state(), portState(p.state()));
        f("\t\t\tmax_mtu:\t\t%s\n", mtu(p.maxMtu()));
        f("\t\t\tactive_mtu:\t\t%s\n", mtu(p.activeMtu()));
        // RoCE has no subnet manager: no SM LID, LMC, SM SL, subnet timeout or init type
        f("\t\t\tsm_lid:\t\t\t%d\n", 0);
        f("\t\t\tport_lid:\t\t%d\n", p.lid());
        f("\t\t\tport_lmc:\t\t0x%02x\n", 0);
        f("\t\t\tlink_layer:\t\t%s\n", p.linkLayer());
        if (!verbose) {
            return;
        }
        f("\t\t\tmax_msg_sz:\t\t0x%x\n", p.maxMessageSize());
        f("\t\t\tport_cap_flags:\t\t0x%08x\n", p.portCapFlags());
        f("\t\t\tport_cap_flags2:\t0x%04x\n", 0);
        f("\t\t\tmax_vl_num:\t\t%s (%d)\n", vl(p.maxVlNum()), p.maxVlNum());
        // the port's violation counters are the device's drop counters for the same checks
        f("\t\t\tbad_pkey_cntr:\t\t0x%x\n", counters.getOrDefault("drop_bad_pkey", 0L));
        f("\t\t\tqkey_viol_cntr:\t\t0x%x\n", counters.getOrDefault("drop_bad_qkey", 0L));
        f("\t\t\tsm_sl:\t\t\t%d\n", 0);
        f("\t\t\tpkey_tbl_len:\t\t%d\n", p.pkeyTableLength());
        f("\t\t\tgid_tbl_len:\t\t%d\n", p.gidTableLength());
        f("\t\t\tsubnet_timeout:\t\t%d\n", 0);
        f("\t\t\tinit_type_reply:\t%d\n", 0);
        f("\t\t\tactive_width:\t\t%sX (%d)\n", width(p.activeWidth()), p.activeWidth());
        f("\t\t\tactive_speed:\t\t%s (%d)\n", speed(p.activeSpeed()), p.activeSpeed());
        f("\t\t\tphys_state:\t\t%s (%d)\n", physState(p.physState()), p.physState());
        for (int i = 0; i < gids.size(); i++) {
            if (!gids.get(i).isZero()) {
                // every jroce GID is a RoCE v2 one: jroce speaks RoCEv2 only
                f("\t\t\tGID[%3d]:\t\t%s, RoCE v2\n", i, GidText.format(gids.get(i)));
            }
        }
    }

    private void counters(Map<String, Long> counters) {
        sb.append("\tcounters:\n");
        counters.forEach((name, value) -> line(2, name, 48, Long.toString(value)));
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

    /** ibv_port_attr.max_vl_num's encoding (IBTA PortInfo:VLCap). */
    private static String vl(int code) {
        return switch (code) {
            case 1 -> "1";
            case 2 -> "2";
            case 3 -> "4";
            case 4 -> "8";
            case 5 -> "15";
            default -> "invalid value";
        };
    }

    /** ibv_port_attr.active_width's encoding (IBTA PortInfo:LinkWidthActive). */
    private static String width(int code) {
        return switch (code) {
            case 1 -> "1";
            case 2 -> "4";
            case 4 -> "8";
            case 8 -> "12";
            case 16 -> "2";
            default -> "invalid width";
        };
    }

    /** ibv_port_attr.active_speed's encoding (IBTA PortInfo:LinkSpeedActive and its extensions). */
    private static String speed(int code) {
        return switch (code) {
            case 1 -> "2.5 Gbps";
            case 2 -> "5.0 Gbps";
            case 4, 8 -> "10.0 Gbps";
            case 16 -> "14.0 Gbps";
            case 32 -> "25.0 Gbps";
            case 64 -> "50.0 Gbps";
            default -> "invalid speed";
        };
    }

    /** IBTA PortInfo:PortPhysicalState. */
    private static String physState(int code) {
        return switch (code) {
            case 1 -> "SLEEP";
            case 2 -> "POLLING";
            case 3 -> "DISABLED";
            case 4 -> "PORT_CONFIGURATION TRAINNING";
            case 5 -> "LINK_UP";
            case 6 -> "LINK_ERROR_RECOVERY";
            case 7 -> "PHY TEST";
            default -> "invalid physical state";
        };
    }
}
