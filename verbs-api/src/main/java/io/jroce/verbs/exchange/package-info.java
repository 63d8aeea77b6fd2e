/**
 * Connecting queue pairs without the RDMA CM, as rdma-core's example programs and perftest do: what
 * each side tells the other about a QP ({@link io.jroce.verbs.exchange.PingpongDest},
 * {@link io.jroce.verbs.exchange.PerftestDest}, in those programs' own message formats, so a jroce
 * program talks to the C ones), and the TCP exchange of ibv_rc_pingpong
 * ({@link io.jroce.verbs.exchange.PingpongExchange}). The QP itself is then connected with
 * {@link io.jroce.verbs.QpConnector}. docs/verbs-guide.md, "Connecting without RDMA CM".
 */
package io.jroce.verbs.exchange;
