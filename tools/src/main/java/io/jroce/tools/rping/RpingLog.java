package io.jroce.tools.rping;

import java.io.PrintStream;

/**
 * Where rping's lines go: ping data and -d's debug printfs to stdout, errors to stderr. Its threads
 * print at once; a PrintStream's println is one synchronized write, so lines never interleave.
 */
final class RpingLog {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean debug;

    RpingLog(PrintStream out, PrintStream err, boolean debug) {
        this.out = out;
        this.err = err;
        this.debug = debug;
    }

    /** DEBUG_LOG: printed with -d only. */
    void debug(String line) {
        if (debug) {
            out.println(line);
        }
    }

    /** printf to stdout. */
    void out(String line) {
        out.println(line);
    }

    /** fprintf(stderr, ...). */
    void err(String line) {
        err.println(line);
    }

    /**
     * What rping's %p prints for one of its objects: jroce has no pointers, so an address-shaped
     * number made of the object's identity, the same for the same object.
     */
    static String pointer(Object o) {
        return String.format("%#x", 0x5500_0000_0000L | (System.identityHashCode(o) & 0xFFFF_FFFFL) << 4);
    }
}
