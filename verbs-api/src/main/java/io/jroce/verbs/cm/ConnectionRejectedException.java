package io.jroce.verbs.cm;

/**
 * The peer answered the REQ (or the REP) with a REJ ({@link RdmaCmEventType#REJECTED}); librdmacm's
 * synchronous calls fail with ECONNREFUSED. {@link #reason()} is the REJ's reason (IBTA 12.6.7):
 * 8 when nobody listens on the port, 28 when the server rejected (rdma_reject) or could
 * not set up its QP.
 */
public class ConnectionRejectedException extends RdmaCmException {
    private static final long serialVersionUID = 1L;

    /** REJ reason 8: no listener for the REQ's service ID (the port). */
    public static final int INVALID_SERVICE_ID = 8;
    /** REJ reason 28: consumer defined (rdma_reject, or the CMA's own failure). */
    public static final int CONSUMER_DEFINED = 28;

    /** The REJ's private data, never null. */
    private final byte[] privateData;

    /**
     * Creates the exception for a REJ.
     *
     * @param message     what was rejected
     * @param reason      the REJ's reason code (IBTA 12.6.7)
     * @param privateData the REJ's private data, copied; null for none
     */
    public ConnectionRejectedException(String message, int reason, byte[] privateData) {
        super(message, RdmaCmEventType.REJECTED, reason);
        this.privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    /**
     * The REJ's reason code.
     *
     * @return the reason, e.g. {@link #INVALID_SERVICE_ID} or {@link #CONSUMER_DEFINED}
     */
    public int reason() {
        return status();
    }

    /**
     * The REJ's private data.
     *
     * @return a copy, empty when the REJ carried none
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * The name of a REJ reason of IBTA 12.6.7, as ib_cm.h spells it.
     *
     * @param reason a REJ reason code
     * @return its name, or "reason N" for a code the table does not know
     */
    public static String reasonName(int reason) {
        return switch (reason) {
            case 1 -> "no QP";
            case 2 -> "no EEC";
            case 3 -> "no resources";
            case 4 -> "timeout";
            case 5 -> "unsupported request";
            case 6 -> "invalid comm ID";
            case 7 -> "invalid comm instance";
            case INVALID_SERVICE_ID -> "invalid service ID (nobody listens on the port)";
            case 9 -> "invalid transport type";
            case 10 -> "stale connection";
            case 11 -> "RDC does not exist";
            case 12 -> "invalid GID";
            case 13 -> "invalid LID";
            case 14 -> "invalid SL";
            case 15 -> "invalid traffic class";
            case 16 -> "invalid hop limit";
            case 17 -> "invalid packet rate";
            case 18 -> "invalid alternate GID";
            case 19 -> "invalid alternate LID";
            case 20 -> "invalid alternate SL";
            case 21 -> "invalid alternate traffic class";
            case 22 -> "invalid alternate hop limit";
            case 23 -> "invalid alternate packet rate";
            case 24 -> "port CM redirect";
            case 25 -> "port redirect";
            case 26 -> "invalid MTU";
            case 27 -> "insufficient responder resources";
            case CONSUMER_DEFINED -> "consumer defined (the peer rejected)";
            case 29 -> "invalid RNR retry";
            case 30 -> "duplicate local comm ID";
            case 31 -> "invalid class version";
            case 32 -> "invalid flow label";
            case 33 -> "invalid alternate flow label";
            default -> "reason " + reason;
        };
    }
}
