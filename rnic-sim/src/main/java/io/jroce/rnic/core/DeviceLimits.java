package io.jroce.rnic.core;

/** The device's limits, modelled on rxe's defaults (drivers/infiniband/sw/rxe/rxe_param.h). */
public final class DeviceLimits {
    /** max_qp: queue pairs per device. */
    public static final int MAX_QP = 1 << 16;
    /** max_qp_wr: work requests per queue. */
    public static final int MAX_QP_WR = 1 << 14;
    /** max_sge: scatter/gather entries per work request. */
    public static final int MAX_SGE = 32;
    /** max_cq: completion queues per device. */
    public static final int MAX_CQ = 1 << 14;
    /** max_cqe: entries per completion queue. */
    public static final int MAX_CQE = (1 << 15) - 1;
    /** Live memory regions and windows together (they share one key space, see KeyTable). */
    public static final int MAX_MR = (1 << 16) - 1;
    /** max_pd: protection domains per device. */
    public static final int MAX_PD = 1 << 16;
    /** max_qp_rd_atom: RDMA READs and atomics a QP serves at once as the responder. */
    public static final int MAX_QP_RD_ATOM = 128;
    /** max_qp_init_rd_atom: RDMA READs and atomics a QP has outstanding as the requester. */
    public static final int MAX_QP_INIT_RD_ATOM = 128;
    /** max_inline_data: bytes a send work request may carry inline. */
    public static final int MAX_INLINE_DATA = 256;
    /** An MR is one Agrona buffer, whose capacity is an int. */
    public static final long MAX_MR_SIZE = Integer.MAX_VALUE;
    /** Largest message (IBTA: 2^31 bytes). */
    public static final long MAX_MSG_SIZE = 1L << 31;
    /** gid_tbl_len: entries of the port's GID table. */
    public static final int GID_TABLE_LENGTH = 16;
    /** max_mcast_grp: multicast groups the device's QPs may attach to (RXE_MAX_MCAST_GRP). */
    public static final int MAX_MCAST_GRP = 8192;
    /** max_mcast_qp_attach: QPs attached to one group (RXE_MAX_MCAST_QP_ATTACH). */
    public static final int MAX_MCAST_QP_ATTACH = 56;
    /** max_total_mcast_qp_attach: attachments of all groups together (RXE_MAX_TOT_MCAST_QP_ATTACH). */
    public static final int MAX_TOTAL_MCAST_QP_ATTACH = 0x70000;
    /** The QPN that addresses the QPs attached to a multicast group (IB_MULTICAST_QPN, IBTA 10.5.2.3). */
    public static final int MULTICAST_QPN = 0xFFFFFF;
    /** vendor_id, as rxe reports it. */
    public static final int VENDOR_ID = 0xFFFFFF;
    /** max_res_rd_atom: every QP keeps its own max_qp_rd_atom READ/atomic resources as the responder. */
    public static final int MAX_RES_RD_ATOM = MAX_QP * MAX_QP_RD_ATOM;
    /** max_mw: memory windows take their keys from the memory regions' key space (KeyTable). */
    public static final int MAX_MW = MAX_MR;
    /** max_ah and max_srq: address handles and shared receive queues are not counted, so int's limit. */
    public static final int UNCOUNTED = Integer.MAX_VALUE;
    /** max_pkeys: the one default P_Key (0xFFFF), as pkey_tbl_len says. */
    public static final int MAX_PKEYS = 1;
    /** local_ca_ack_delay: the target ACK delay jroce's CM puts in its REQ and REP (4.096 us * 2^15). */
    public static final int LOCAL_CA_ACK_DELAY = 15;
    /**
     * device_cap_flags, in rdma-core's enum ibv_device_cap_flags bits: what jroce does of it. Bad
     * P_Key and Q_Key counters (drop_bad_pkey, drop_bad_qkey), the port-active async event, a system
     * image GUID, RNR NAKs, memory windows of type 1 and 2B. Not: path migration, port changes,
     * SRQ resizing, XRC, fast registration (MEM_MGT_EXTENSIONS), checksum offloads.
     */
    public static final int DEVICE_CAP_FLAGS = 1 << 1 | 1 << 2 | 1 << 10 | 1 << 11 | 1 << 12 | 1 << 17 | 1 << 24;
    /** port_cap_flags: IBTA PortInfo:CapabilityMask bit 16, IsCommunicationManagementSupported (jroce answers CM MADs). */
    public static final int PORT_CAP_FLAGS = 1 << 16;
    /** First QP number handed out; QP0 and QP1 are reserved (IBTA 10.2.5). */
    public static final int FIRST_QPN = 0x11;

    private DeviceLimits() {
    }
}
