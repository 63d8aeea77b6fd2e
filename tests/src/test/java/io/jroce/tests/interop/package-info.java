/**
 * The interop lab: real Linux rxe (Soft-RoCE) peers, each a QEMU guest in a local Docker
 * container ({@link io.jroce.testcontainers.RxePeer}) on a Docker network shared with this host
 * ({@link io.jroce.testcontainers.RxeNetwork}), for tests that talk to rdma-core's own tools.
 * Tests that start peers carry {@link io.jroce.testcontainers.RequiresRxePeer}. See
 * docs/interop-lab.md.
 */
package io.jroce.tests.interop;
