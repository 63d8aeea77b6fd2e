package io.jroce.tools.pingpong;

/**
 * ibv_rc_pingpong options that need what a jroce device does not have. Each is refused with the
 * line ibv_rc_pingpong prints on a device without the capability (and exit status 1), in the
 * order it checks them, instead of being ignored.
 */
final class Refusals {
    private Refusals() {
    }

    /** The refusal for the first unsupported option given, or null when there is none. */
    static String check(PingpongOptions.Flags f) {
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
}
