package io.jroce.verbs;

/**
 * What ibv_query_device reports. jroce takes rxe's values as its model (rxe_param.h) where a
 * software device has a choice.
 *
 * @param firmwareVersion     fw_ver
 * @param nodeGuid            node_guid (derived from the first GID, as rxe derives it from the MAC)
 * @param vendorId            vendor_id
 * @param vendorPartId        vendor_part_id
 * @param maxMrSize           max_mr_size
 * @param pageSizeCap         page_size_cap
 * @param maxQp               max_qp
 * @param maxQpWr             max_qp_wr
 * @param maxSge              max_sge (send and receive)
 * @param maxCq               max_cq
 * @param maxCqe              max_cqe
 * @param maxMr               max_mr
 * @param maxPd               max_pd
 * @param maxQpRdAtom         max_qp_rd_atom (outstanding READ/atomic per QP as responder)
 * @param maxQpInitRdAtom     max_qp_init_rd_atom (as requester)
 * @param maxInlineData       largest inline send
 * @param atomicCapability    "ATOMIC_HCA" when atomics are atomic with respect to this device only
 * @param physPortCount       phys_port_cnt
 * @param maxMcastGrp         max_mcast_grp (multicast groups QPs of the device may attach to)
 * @param maxMcastQpAttach    max_mcast_qp_attach (QPs attached to one group)
 * @param maxTotalMcastQpAttach max_total_mcast_qp_attach (attachments of all groups together)
 */
public record DeviceAttributes(
    String firmwareVersion,
    long nodeGuid,
    int vendorId,
    int vendorPartId,
    long maxMrSize,
    long pageSizeCap,
    int maxQp,
    int maxQpWr,
    int maxSge,
    int maxCq,
    int maxCqe,
    int maxMr,
    int maxPd,
    int maxQpRdAtom,
    int maxQpInitRdAtom,
    int maxInlineData,
    String atomicCapability,
    int physPortCount,
    int maxMcastGrp,
    int maxMcastQpAttach,
    int maxTotalMcastQpAttach) {
}
