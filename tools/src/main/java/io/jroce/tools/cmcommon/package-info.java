/**
 * What jroce's twins of librdmacm's example programs share: the device their addresses call for
 * ({@link io.jroce.tools.cmcommon.CmDevicePlan}), getaddrinfo as they call it
 * ({@link io.jroce.tools.cmcommon.AddrLookup}), and the C library's words for a failure
 * ({@link io.jroce.tools.cmcommon.Strerror}).
 */
package io.jroce.tools.cmcommon;
