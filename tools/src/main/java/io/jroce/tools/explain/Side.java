package io.jroce.tools.explain;

/**
 * One end of a connection: where it receives and its QP number, or {@link #UNKNOWN_QPN} when the
 * capture never shows a packet sent to it.
 */
record Side(Endpoint endpoint, int qpn) {
    static final int UNKNOWN_QPN = -1;

    @Override
    public String toString() {
        return endpoint + " QP " + (qpn == UNKNOWN_QPN ? "?" : String.format("0x%06x", qpn));
    }
}
