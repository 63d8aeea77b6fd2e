package io.jroce.rnic.events;

/** Why a requester goes back to an earlier PSN and sends again (IBTA Vol. 1 9.7.6.1.3, 9.7.5.2). */
public enum RetransmitCause {
    /** The responder NAKed a PSN sequence error: it expects an earlier PSN (9.7.5.2.3). */
    NAK_SEQUENCE_ERROR("NAK sequence error"),
    /** The transport timer expired with packets unacknowledged (9.7.6.1.3). */
    TIMEOUT("ACK timeout"),
    /**
     * A later response arrived while an RDMA READ's or atomic's response is missing: an implied NAK
     * (C9-113; 9.7.5.1.5).
     */
    IMPLIED_NAK("implied NAK"),
    /** The responder had no receive WQE and answered RNR NAK: sent again after its timer (9.7.5.2.8). */
    RNR_NAK("RNR NAK");

    private final String words;

    RetransmitCause(String words) {
        this.words = words;
    }

    /**
     * The cause as a person reads it.
     *
     * @return e.g. "ACK timeout"
     */
    public String words() {
        return words;
    }
}
