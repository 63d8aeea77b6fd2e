package io.jroce.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares {@code jroce devinfo} output with what rdma-core's {@code ibv_devinfo} printed on an
 * rxe device, line by line: the same lines in the same order, each with the same label and the same
 * tabs; a value may differ only where {@link #JROCE_VALUES} names the label, with the reason.
 * Flag names under a value (ibv_devinfo's {@code device_cap_flags}) belong to that value.
 */
public final class DevinfoComparison {
    /** Labels whose values must differ between jroce and rxe, each with the reason. */
    public static final Map<String, String> JROCE_VALUES = jroceValues();

    private DevinfoComparison() {
    }

    private static Map<String, String> jroceValues() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("hca_id", "the device's name: jroce's configured name against the kernel's rxe0");
        m.put("fw_ver", "jroce's version against rxe's 0.0.0");
        m.put("node_guid", "derived from the device's first address, as rxe derives it from the guest's MAC");
        m.put("sys_image_guid", "the node GUID, as rxe reports it");
        m.put("max_mr_size", "a jroce MR is one Java buffer, whose capacity is an int");
        m.put("max_qp", "jroce's own limit (DeviceLimits.MAX_QP)");
        m.put("max_qp_wr", "jroce's own limit (DeviceLimits.MAX_QP_WR)");
        m.put("device_cap_flags", "what jroce implements: no path migration, port change, SRQ resize or fast registration");
        m.put("max_cq", "jroce's own limit (DeviceLimits.MAX_CQ)");
        m.put("max_mr", "jroce's own limit (DeviceLimits.MAX_MR: MRs and MWs share one key space)");
        m.put("max_pd", "jroce's own limit (DeviceLimits.MAX_PD)");
        m.put("max_res_rd_atom", "every jroce QP keeps its own max_qp_rd_atom resources");
        m.put("max_mw", "MWs take their keys from the MRs' key space");
        m.put("max_ah", "jroce does not count address handles");
        m.put("max_srq", "jroce does not count SRQs");
        m.put("max_srq_wr", "an SRQ takes max_qp_wr work requests, as a QP");
        m.put("max_srq_sge", "an SRQ takes max_sge entries, as a QP");
        m.put("max_pkeys", "jroce has the one default P_Key its pkey_tbl_len says");
        m.put("device_cap_flags_ex", "the same bits as device_cap_flags");
        m.put("active_mtu", "rxe derives it from its netdev's MTU (1500 bytes in the guest), jroce from its link MTU setting");
        m.put("max_msg_sz", "jroce takes the IBTA's 2^31 bytes, rxe 8 MiB");
        m.put("gid_tbl_len", "jroce's GID table holds the addresses it is given (DeviceLimits.GID_TABLE_LENGTH)");
        m.put("GID[  0]", "the devices' own addresses");
        m.put("GID[  1]", "the devices' own addresses");
        return Map.copyOf(m);
    }

    /**
     * The differences that are not allowed.
     *
     * @param rxe       what ibv_devinfo printed
     * @param jroce     what jroce devinfo printed
     * @param mayDiffer labels whose values may differ
     * @return one description per difference; empty when the outputs agree
     */
    public static List<String> differences(String rxe, String jroce, Map<String, String> mayDiffer) {
        List<String[]> expected = entries(rxe);
        List<String[]> actual = entries(jroce);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            if (i >= expected.size()) {
                problems.add("line " + (i + 1) + ": extra " + show(actual.get(i)));
                continue;
            }
            if (i >= actual.size()) {
                problems.add("line " + (i + 1) + ": missing " + show(expected.get(i)));
                continue;
            }
            String[] e = expected.get(i);
            String[] a = actual.get(i);
            if (!e[0].equals(a[0])) {
                problems.add("line " + (i + 1) + ": rxe has " + show(e) + ", jroce " + show(a));
            } else if (!e[1].equals(a[1]) && !mayDiffer.containsKey(e[0].strip().replaceFirst(":$", ""))) {
                problems.add("line " + (i + 1) + ": " + e[0].strip() + " rxe " + e[1] + ", jroce " + a[1]);
            }
        }
        return problems;
    }

    /** Each line as {label with its tabs, value}; flag lines (five tabs) join the value above. */
    private static List<String[]> entries(String text) {
        List<String[]> entries = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("\t\t\t\t\t") && !entries.isEmpty()) {
                String[] last = entries.get(entries.size() - 1);
                last[1] = last[1] + " | " + line.strip();
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                entries.add(new String[] {line, ""});
                continue;
            }
            int value = colon + 1;
            while (value < line.length() && line.charAt(value) == '\t') {
                value++;
            }
            entries.add(new String[] {line.substring(0, value), line.substring(value)});
        }
        return entries;
    }

    private static String show(String[] entry) {
        return "'" + (entry[0] + entry[1]).replace("\t", "\\t") + "'";
    }
}
