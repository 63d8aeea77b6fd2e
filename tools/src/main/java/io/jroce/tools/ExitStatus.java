package io.jroce.tools;

/** Exit statuses of every command. */
public final class ExitStatus {
    /** Everything the command set out to do worked. */
    public static final int OK = 0;
    /** The command ran and something failed; an error line says what. */
    public static final int FAILED = 1;
    /** The command line was wrong. */
    public static final int USAGE = 2;

    private ExitStatus() {
    }
}
