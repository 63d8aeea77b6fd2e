package io.jroce.verbs;

/** Memory and QP access flags; the values are those of enum ibv_access_flags. */
public final class AccessFlags {
    /** The local HCA may write the memory (IBV_ACCESS_LOCAL_WRITE): receives, READ responses, atomics' results. */
    public static final int LOCAL_WRITE = 1;
    /** A peer may RDMA WRITE the memory (IBV_ACCESS_REMOTE_WRITE); needs {@link #LOCAL_WRITE}. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** A peer may RDMA READ the memory (IBV_ACCESS_REMOTE_READ). */
    public static final int REMOTE_READ = 1 << 2;
    /** A peer may run atomic operations on the memory (IBV_ACCESS_REMOTE_ATOMIC); needs {@link #LOCAL_WRITE}. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** Memory windows may be bound to the region (IBV_ACCESS_MW_BIND). */
    public static final int MW_BIND = 1 << 4;
    /** Every flag this implementation knows. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | MW_BIND;

    private AccessFlags() {
    }

    /**
     * The flags set in a mask, for messages and dumps.
     *
     * @param flags a mask of the flags above
     * @return their names joined by {@code |}, e.g. {@code LOCAL_WRITE|REMOTE_READ}, or {@code none}
     */
    public static String describe(int flags) {
        StringBuilder sb = new StringBuilder();
        append(sb, flags, LOCAL_WRITE, "LOCAL_WRITE");
        append(sb, flags, REMOTE_WRITE, "REMOTE_WRITE");
        append(sb, flags, REMOTE_READ, "REMOTE_READ");
        append(sb, flags, REMOTE_ATOMIC, "REMOTE_ATOMIC");
        append(sb, flags, MW_BIND, "MW_BIND");
        return sb.length() == 0 ? "none" : sb.toString();
    }

    private static void append(StringBuilder sb, int flags, int bit, String name) {
        if ((flags & bit) != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append(name);
        }
    }
}
