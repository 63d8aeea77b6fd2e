package io.jroce.verbs;

/** Send work request flags; values of enum ibv_send_flags. */
public final class SendFlags {
    /** Wait for every earlier RDMA READ and atomic to complete first (IBTA 10.8.3.3). */
    public static final int FENCE = 1;
    /** Generate a completion even when the QP is not sq_sig_all. */
    public static final int SIGNALED = 1 << 1;
    /** Set the solicited-event bit of the last packet. */
    public static final int SOLICITED = 1 << 2;
    /** Copy the data at post time; the lkeys are not used. */
    public static final int INLINE = 1 << 3;

    private SendFlags() {
    }
}
