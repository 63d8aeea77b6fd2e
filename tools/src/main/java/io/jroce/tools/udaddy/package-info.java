/**
 * {@code jroce udaddy}: the twin of librdmacm's udaddy (rdma-core v44, {@code librdmacm/examples/udaddy.c}):
 * UD QPs whose peers are found through jroce's RDMA CM in the UDP port space (SIDR), the same
 * options, output lines, datagrams (SEND with immediate data the sender's QPN, the reply's address
 * from the receive's GRH area) and exit statuses, so either side may be jroce or the real udaddy on
 * Linux rxe.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.udaddy;
