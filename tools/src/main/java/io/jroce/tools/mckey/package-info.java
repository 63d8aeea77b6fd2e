/**
 * {@code jroce mckey}: the twin of librdmacm's mckey (rdma-core v44, {@code librdmacm/examples/mckey.c}):
 * UDP-port-space RDMA CM IDs join an IP multicast group (RoCE: MGID ::ffff:&lt;group&gt;, QPN 0xFFFFFF,
 * Q_Key 0x01234567), and a sender SENDs datagrams with immediate data to it that every receiver counts,
 * with mckey's options, output lines and exit statuses, so either side may be jroce or the real
 * mckey on Linux rxe.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.mckey;
