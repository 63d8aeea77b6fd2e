package io.jroce.verbs.spi;

import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;

/**
 * Fills {@link WorkCompletion}s for the RNIC, whose fields an application can only read. The one
 * implementation is nested in WorkCompletion (the only class that can write its fields) and
 * registers itself when that class initialises, as the JDK's shared-secrets pattern does; nothing
 * else can register one.
 */
public abstract class CompletionWriter {
    private static volatile CompletionWriter writer;

    /** For WorkCompletion's nested writer only; see {@link #register}. */
    protected CompletionWriter() {
    }

    /**
     * The writer.
     *
     * @return the one writer, WorkCompletion's
     */
    public static CompletionWriter get() {
        CompletionWriter w = writer;
        if (w == null) {
            new WorkCompletion(); // initialises WorkCompletion, which registers its writer
            w = writer;
        }
        return w;
    }

    /**
     * Called by WorkCompletion's initialiser.
     *
     * @param w its nested writer
     * @throws IllegalStateException when {@code w} is not nested in WorkCompletion, or one is registered already
     */
    public static void register(CompletionWriter w) {
        if (w == null || w.getClass().getNestHost() != WorkCompletion.class) {
            throw new IllegalStateException("only WorkCompletion registers the completion writer");
        }
        synchronized (CompletionWriter.class) {
            if (writer != null) {
                throw new IllegalStateException("the completion writer is registered already");
            }
            writer = w;
        }
    }

    /**
     * Fills every field and clears the GRH and invalidate flags.
     *
     * @param wc        the completion to fill
     * @param wrId      the work request's identifier
     * @param status    the completion status
     * @param opcode    the completion opcode
     * @param byteLen   the bytes transferred
     * @param withImm   whether immediate data came
     * @param immData   the immediate data
     * @param qpNum     the local QP number
     * @param srcQp     the source QP number
     * @param vendorErr the implementation's error detail, 0 for none
     * @return {@code wc}
     */
    public abstract WorkCompletion set(WorkCompletion wc, long wrId, WcStatus status, WcOpcode opcode, int byteLen,
                                       boolean withImm, int immData, int qpNum, int srcQp, int vendorErr);

    /**
     * Starts a completion of work request {@code wrId} on QP {@code qpNum} with status SUCCESS and
     * every other field cleared.
     *
     * @param wc     the completion to fill
     * @param wrId   the work request's identifier
     * @param opcode the completion opcode
     * @param qpNum  the local QP number
     * @return {@code wc}
     */
    public final WorkCompletion start(WorkCompletion wc, long wrId, WcOpcode opcode, int qpNum) {
        return set(wc, wrId, WcStatus.SUCCESS, opcode, 0, false, 0, qpNum, 0, 0);
    }

    /**
     * Sets the status.
     *
     * @param wc     the completion
     * @param status the status
     */
    public abstract void status(WorkCompletion wc, WcStatus status);

    /**
     * Sets the number of bytes transferred.
     *
     * @param wc      the completion
     * @param byteLen the byte count, unsigned
     */
    public abstract void byteLen(WorkCompletion wc, int byteLen);

    /**
     * Sets the immediate data and IBV_WC_WITH_IMM.
     *
     * @param wc      the completion
     * @param immData the immediate data
     */
    public abstract void immData(WorkCompletion wc, int immData);

    /**
     * Sets the source QP (UD receives; connected QPs report their peer).
     *
     * @param wc    the completion
     * @param srcQp the source QP number
     */
    public abstract void srcQp(WorkCompletion wc, int srcQp);

    /**
     * Sets IBV_WC_GRH (a UD receive whose buffer starts with the 40-byte GRH area).
     *
     * @param wc  the completion
     * @param grh whether the GRH area is filled
     */
    public abstract void grh(WorkCompletion wc, boolean grh);

    /**
     * Sets the rkey a SEND with invalidate invalidated, and IBV_WC_WITH_INV.
     *
     * @param wc   the completion
     * @param rkey the invalidated rkey
     */
    public abstract void invalidatedRkey(WorkCompletion wc, int rkey);
}
