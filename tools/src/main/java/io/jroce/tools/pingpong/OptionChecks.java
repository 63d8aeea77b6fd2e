package io.jroce.tools.pingpong;

/**
 * The checks the real tools make on their options before they open a device: what they would need
 * that a jroce device does not have, and the limits srq_pingpong sets. Each is refused with the line the real tool prints (on a device without
 * the capability), in the order it checks them, and exit status 1, instead of being ignored.
 */
final class OptionChecks {
    private OptionChecks() {
    }

    /** The refusal for the first option given that cannot be honoured, or null when there is none. */
    static String check(PingpongOptions options) {
        PingpongOptions.Flags f = options.flags();
        if (options.tool() == PingpongTool.SRQ) {
            return checkSrq(options);
        }
        if (f.odp() && f.deviceMemory()) {
            return "DM memory region can't be on demand";
        }
        if (!f.odp() && f.prefetch()) {
            return "prefetch is valid only with on-demand memory region";
        }
        if (f.odp()) {
            return "The device isn't ODP capable or does not support RC send and receive with ODP"
                + " (-o/-O/--odp/--iodp: jroce has no on-demand paging)";
        }
        if (f.timestamps()) {
            return "The device isn't completion timestamp capable (-t/--ts: jroce has no completion timestamps)";
        }
        if (f.deviceMemory()) {
            return "Device doesn't support dm allocation (-j/--dm: jroce has no device memory)";
        }
        return null;
    }

    /** srq_pingpong's checks of -q against -r and MAX_QP (its words, its off-by-one), then -o. */
    private static String checkSrq(PingpongOptions options) {
        if (options.numQp() > options.rxDepth()) {
            return String.format("rx_depth %d is too small for %d QPs -- must have at least one receive per QP.",
                options.rxDepth(), options.numQp());
        }
        if (options.numQp() >= PingpongTool.SRQ_MAX_QP) {
            return String.format("num_qp %d must be less than %d", options.numQp(), PingpongTool.SRQ_MAX_QP - 1);
        }
        if (options.flags().odp()) {
            return "The device isn't ODP capable or does not support RC send, receive and srq with ODP"
                + " (-o/--odp: jroce has no on-demand paging)";
        }
        return null;
    }
}
