/**
 * {@code jroce rdma_server} and {@code jroce rdma_client}: the twins of librdmacm's rdma_server
 * and rdma_client examples (rdma-core v44), built on jroce's convenience layer
 * ({@code rdma_getaddrinfo}, {@code rdma_create_ep}, {@code rdma_verbs.h}): one connection, one
 * 16-byte SEND each way, with their output and exit statuses.
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.rdmaep;
