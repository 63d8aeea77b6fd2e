/**
 * What jroce's twins of librdmacm's example programs (rping, ucmatose, cmtime, udaddy, mckey,
 * rdma_server and rdma_client) share: the device their addresses call for and the address they bind or connect
 * from ({@link io.jroce.tools.cmcommon.CmDevicePlan}), getaddrinfo as they call it and its wildcards
 * ({@link io.jroce.tools.cmcommon.AddrLookup}), the C library's atoi on their options
 * ({@link io.jroce.tools.cmcommon.CLib}) and getopt with glibc's complaints
 * ({@link io.jroce.tools.cmcommon.TwinGetopt}), jroce's device options in their getopt tables
 * ({@link io.jroce.tools.cmcommon.TwinDeviceOptions}, whose errors are
 * {@link io.jroce.tools.cmcommon.JroceOptionException}s), and the C library's words for a failure
 * ({@link io.jroce.tools.cmcommon.Strerror}); and the UD twins (udaddy, mckey) their nodes
 * ({@link io.jroce.tools.cmcommon.UdNode}) and the functions udaddy.c and mckey.c repeat
 * ({@link io.jroce.tools.cmcommon.UdTest}); and their teardown ({@link io.jroce.tools.cmcommon.Teardown}).
 *
 * <p>Internal: the tools are an application, whose command lines and output are what they promise;
 * their classes are not API and may change in any release (docs/versioning.md).
 */
package io.jroce.tools.cmcommon;
