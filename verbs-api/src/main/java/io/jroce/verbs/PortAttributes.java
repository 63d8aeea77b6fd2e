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
 */
public record PortAttributes(
    String state,
    Mtu maxMtu,
    Mtu activeMtu,
    int gidTableLength,
    String linkLayer,
    int lid,
    long maxMessageSize,
    int pkeyTableLength) {
}
