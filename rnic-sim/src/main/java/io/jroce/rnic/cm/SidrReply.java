package io.jroce.rnic.cm;

/**
 * A SIDR_REP as the active side's consumer sees it ({@code cm_format_sidr_rep_event}).
 *
 * @param status      0 (success), 1 (no listener), 2 (rejected), or another {@code ib_cm_sidr_status}
 * @param qpn         the UD QP that serves the service (valid for status 0)
 * @param qKey        the Q_Key that QP takes (valid for status 0)
 * @param privateData the whole private data field (136 bytes)
 */
public record SidrReply(int status, int qpn, int qKey, byte[] privateData) {
}
