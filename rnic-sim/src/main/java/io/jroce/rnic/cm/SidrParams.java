package io.jroce.rnic.cm;

import io.jroce.stack.mad.CmSidrReqFlyweight;

/**
 * What the active side's SIDR_REQ carries (IBTA 12.11.1), as the CMA fills it ({@code cma_resolve_ib_udp}).
 *
 * @param serviceId   the service to resolve (port space UDP: {@code 0x0111 << 16 | port})
 * @param localGid    this device's GID the request leaves from
 * @param peerGid     the passive side's GID
 * @param privateData the RDMA CM header then the application's, at most {@link #MAX_PRIVATE_DATA} bytes
 */
public record SidrParams(long serviceId, byte[] localGid, byte[] peerGid, byte[] privateData) {
    /** The SIDR_REQ's private data field: 216 bytes, of which the RDMA CM header takes 36. */
    public static final int MAX_PRIVATE_DATA = CmSidrReqFlyweight.PRIVATE_DATA_LENGTH;
}
