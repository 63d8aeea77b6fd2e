/**
 * A real Linux Soft-RoCE (rxe) peer for JUnit 5 tests, on Testcontainers: {@link
 * io.jroce.testcontainers.RxeContainer} is a container whose QEMU guest runs a Linux kernel with an
 * rxe device, kept to run many commands ({@link io.jroce.testcontainers.RxeContainer#run}, {@link
 * io.jroce.testcontainers.GuestCommand}) or running one, with C programs of the user's compiled for
 * it ({@link io.jroce.testcontainers.GuestProgram}); rdma-core's, perftest's and librdmacm's tools
 * are in the image. It exposes the guest's addresses, GIDs, console and exit statuses ({@link
 * io.jroce.testcontainers.GuestResult}). {@link io.jroce.testcontainers.RxePeer} is the shorthand
 * for a one-command guest. {@link io.jroce.testcontainers.RxeNetwork} is the Docker network (IPv4,
 * and IPv6 on request) shared with the host, whose address on it a jroce device binds; {@link
 * io.jroce.testcontainers.RequiresRxePeer} skips a test, saying what is missing, where the peer
 * cannot run (no Docker, no image it can build, no /dev/net/tun, Testcontainers' settings for this
 * environment), and fails it under {@code CI=true}. {@link io.jroce.testcontainers.RxeLab} names
 * the image (a hash of its build files), builds it on first use and checks the prerequisites.
 * docs/testing-against-rxe.md is the guide.
 */
package io.jroce.testcontainers;
