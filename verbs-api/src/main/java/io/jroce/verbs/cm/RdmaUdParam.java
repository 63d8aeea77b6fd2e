package io.jroce.verbs.cm;

import io.jroce.verbs.AddressVector;

/**
 * {@code struct rdma_ud_param} (rdma_cma.h): what an active UD ID's ESTABLISHED carries, the peer's
 * service as its SIDR_REP announced it. Send to it with
 * {@code pd.createAddressHandle(ud.ahAttr())} and {@code SendWorkRequest.ud(ah, ud.qpNum(), ud.qkey())}.
 */
public final class RdmaUdParam {
    private final AddressVector ahAttr;
    private final int qpNum;
    private final int qkey;

    /**
     * Creates the parameters of a resolved UD service.
     *
     * @param ahAttr the address vector that reaches the peer (its GID, this ID's source GID index)
     * @param qpNum  the peer's UD QP that serves the service
     * @param qkey   the Q_Key that QP takes (0x01234567 for {@link PortSpace#UDP})
     */
    public RdmaUdParam(AddressVector ahAttr, int qpNum, int qkey) {
        this.ahAttr = ahAttr.copy();
        this.qpNum = qpNum;
        this.qkey = qkey;
    }

    /**
     * The address handle attributes that reach the peer.
     *
     * @return a copy
     */
    public AddressVector ahAttr() {
        return ahAttr.copy();
    }

    /**
     * The peer's QP number.
     *
     * @return the UD QP that serves the service
     */
    public int qpNum() {
        return qpNum;
    }

    /**
     * The Q_Key the peer's QP takes.
     *
     * @return the Q_Key to put in the send work request
     */
    public int qkey() {
        return qkey;
    }

    @Override
    public String toString() {
        return "ud{" + ahAttr + ", qp_num=0x" + Integer.toHexString(qpNum) + ", qkey=0x" + Integer.toHexString(qkey) + "}";
    }
}
