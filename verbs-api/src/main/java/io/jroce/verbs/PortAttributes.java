package io.jroce.verbs;

/**
 * What ibv_query_port reports for port 1, the only port.
 *
 * @param state          "PORT_ACTIVE" while the transport is open
 * @param maxMtu         largest path MTU
 * @param activeMtu      path MTU the port runs (from the configured link MTU, as rxe derives it)
 * @param gidTableLength gid_tbl_len
 * @param linkLayer      "Ethernet" on RoCE
 * @param lid            0 on RoCE
 * @param maxMessageSize max_msg_sz
 * @param pkeyTableLength pkey_tbl_len
 * @param portCapFlags   port_cap_flags: the bits of IBTA PortInfo:CapabilityMask
 *                       (0x00010000, IsCommunicationManagementSupported, when a CM answers)
 * @param maxVlNum       max_vl_num as ibv_port_attr encodes it (1: one data VL)
 * @param activeWidth    active_width as ibv_port_attr encodes it (1: 1X)
 * @param activeSpeed    active_speed as ibv_port_attr encodes it (1: 2.5 Gbps)
 * @param physState      phys_state: IBTA PortInfo:PortPhysicalState (5: LinkUp, 3: Disabled)
 */
public record PortAttributes(
    String state,
    Mtu maxMtu,
    Mtu activeMtu,
    int gidTableLength,
    String linkLayer,
    int lid,
    long maxMessageSize,
    int pkeyTableLength,
    int portCapFlags,
    int maxVlNum,
    int activeWidth,
    int activeSpeed,
    int physState) {
}
