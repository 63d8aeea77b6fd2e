package io.jroce.rnic.cm;

/**
 * A SIDR_REQ as the passive side's consumer sees it ({@code cm_format_sidr_req_event}).
 *
 * @param serviceId    the service the request asked for
 * @param partitionKey the request's P_Key
 * @param privateData  the whole private data field (216 bytes, the RDMA CM header first)
 */
public record SidrRequest(long serviceId, int partitionKey, byte[] privateData) {
}
