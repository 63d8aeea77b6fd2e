package io.jroce.tools.cmcommon;

/** What glibc's getopt prints to stderr for an option error, as the C programs show it. */
public final class GetoptComplaint {
    private GetoptComplaint() {
    }

    /** glibc's line for the error jroce's Getopt reported as {@code message}, after {@code program}'s name. */
    public static String of(String program, String message) {
        String unknownShort = "unknown option '-";
        if (message.startsWith(unknownShort) && message.length() == unknownShort.length() + 2) {
            return program + ": invalid option -- '" + message.charAt(unknownShort.length()) + "'";
        }
        if (message.startsWith("unknown option '--")) {
            return program + ": unrecognized option '" + message.substring("unknown option '".length());
        }
        if (message.startsWith("-") && message.endsWith(" needs a value")) {
            return program + ": option requires an argument -- '" + message.charAt(1) + "'";
        }
        return program + ": " + message;
    }
}
