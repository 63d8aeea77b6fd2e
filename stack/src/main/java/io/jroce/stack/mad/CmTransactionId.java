package io.jroce.stack.mad;

/**
 * The transaction ID the Linux CM puts in a MAD header (drivers/infiniband/core/cm.c, cm_form_tid).
 * The kernel keeps the local communication ID as a big-endian 32-bit value, widens it as a host
 * (little-endian) number into the low half of a 64-bit value, puts the MAD agent's {@code hi_tid}
 * counter in the high half, and sends the result big-endian. So on the wire the high four bytes are
 * the counter and the low four the comm ID with its bytes reversed: comm ID 0xbabcab87 with
 * {@code hi_tid} 2 goes out as 0x0000000287abbcba. IBTA leaves a TID's content to its sender; a peer
 * only echoes it, so jroce forms it the same way to look the same on the wire.
 */
public final class CmTransactionId {
    private CmTransactionId() {
    }

    /** The TID for a CM ID with local comm ID {@code localCommId} (as on the wire) and MAD agent counter {@code hiTid}. */
    public static long form(int hiTid, int localCommId) {
        return (long) hiTid << 32 | Integer.toUnsignedLong(Integer.reverseBytes(localCommId));
    }

    /** The comm ID {@link #form} put in the low half of {@code tid}. */
    public static int commId(long tid) {
        return Integer.reverseBytes((int) tid);
    }

    /** The counter {@link #form} put in the high half of {@code tid}. */
    public static int hiTid(long tid) {
        return (int) (tid >>> 32);
    }
}
