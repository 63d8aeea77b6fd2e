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
 * @param sysImageGuid        sys_image_guid (one device per system image: the node GUID, as rxe reports)
 * @param hardwareVersion     hw_ver
 * @param deviceCapFlags      device_cap_flags: the bits of rdma-core's enum ibv_device_cap_flags
 *                            (e.g. bit 12, IBV_DEVICE_RC_RNR_NAK_GEN, 0x1000)
 * @param maxSgeRd            max_sge_rd (scatter entries of an RDMA READ)
 * @param maxResRdAtom        max_res_rd_atom (READ/atomic resources of all QPs as responder)
 * @param maxMw               max_mw (memory windows)
 * @param maxAh               max_ah (address handles)
 * @param maxSrq              max_srq (shared receive queues)
 * @param maxSrqWr            max_srq_wr (work requests of one SRQ)
 * @param maxSrqSge           max_srq_sge (scatter entries of an SRQ's work request)
 * @param maxPkeys            max_pkeys (P_Key table entries)
 * @param localCaAckDelay     local_ca_ack_delay: the responder's ACK delay as 4.096 us * 2^value
 *                            (IBTA 9.7.6.1.3; CM REQ/REP target ACK delay)
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
    int maxTotalMcastQpAttach,
    long sysImageGuid,
    int hardwareVersion,
    int deviceCapFlags,
    int maxSgeRd,
    int maxResRdAtom,
    int maxMw,
    int maxAh,
    int maxSrq,
    int maxSrqWr,
    int maxSrqSge,
    int maxPkeys,
    int localCaAckDelay) {
}
