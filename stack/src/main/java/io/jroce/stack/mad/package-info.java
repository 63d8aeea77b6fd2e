/**
 * Management datagrams (IBTA Vol. 1 chapter 13) and the Communication Manager messages they carry
 * (chapter 12), laid out as the Linux kernel's CM sends them over RoCEv2: one flyweight per MAD
 * header, CM message and the RDMA CM's private-data header. Nothing here allocates.
 *
 * <p>Internal: not part of jroce's API, so it may change in any release (docs/versioning.md).
 */
package io.jroce.stack.mad;
