package io.jroce.tools.perftest;

import io.jroce.verbs.AddressHandle;

/**
 * Where a UD QP of the test sends (wr.ud of ctx_set_send_wqes): the peer's address handle, QP
 * number and Q_Key. Without -R the QPN comes from the key exchange and the Q_Key is DEF_QKEY; with
 * -R both come from the RDMA CM (the SIDR_REP on the client, the peer's first SEND on the server).
 */
record UdPeer(AddressHandle ah, int qpn, int qkey) {
}
