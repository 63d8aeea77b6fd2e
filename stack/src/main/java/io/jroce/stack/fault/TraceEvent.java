package io.jroce.stack.fault;

import io.jroce.stack.transport.IpAddresses;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.OpcodeTable;

/**
 * One line of a {@link PacketTrace}: a packet as it was sent, and what the network did with it.
 *
 * @param timeNs   when it was sent
 * @param id       the transport's sequence number of the packet (a copy has its original's id)
 * @param src      sender address, 16 bytes
 * @param dst      receiver address, 16 bytes
 * @param opcode   BTH opcode, -1 if the datagram is too short
 * @param psn      BTH PSN, -1 if the datagram is too short
 * @param length   bytes from the BTH on, without the ICRC
 * @param syndrome the AETH syndrome byte, -1 if the packet carries no AETH (tells an ACK from a NAK)
 * @param fate     what happened to it
 * @param arriveNs when it is delivered, -1 for a dropped packet
 * @param cause    which rule or random condition decided the fate; null when delivered unchanged
 */
public record TraceEvent(long timeNs, long id, byte[] src, byte[] dst, int opcode, int psn, int length,
                         int syndrome, Fate fate, long arriveNs, String cause) {

    /**
     * The IBTA opcode name from the {@link OpcodeTable}, such as RC_RDMA_READ_RESPONSE_FIRST.
     *
     * @return the name, or {@code opcode_0x} and the number for an unknown opcode
     */
    public String opcodeName() {
        OpcodeInfo info = opcode < 0 ? null : OpcodeTable.get(opcode);
        return info != null ? info.name() : "opcode_0x" + Integer.toHexString(opcode);
    }

    /**
     * "req" for what a requester sends, "rsp" for what a responder sends.
     *
     * @return "req" or "rsp"; "?" for an unknown opcode
     */
    public String direction() {
        OpcodeInfo info = opcode < 0 ? null : OpcodeTable.get(opcode);
        return info == null ? "?" : info.isRequest() ? "req" : info.isResponse() ? "rsp" : "-";
    }

    /**
     * One line: {@code 12.345678ms #42 10.0.0.1>10.0.0.2 req RC_SEND_FIRST psn=0x000100 len=1024 DELIVERED @12.346678ms}.
     *
     * @return the line, without a newline
     */
    public String format() {
        StringBuilder sb = new StringBuilder(120);
        sb.append(ms(timeNs)).append(" #").append(id).append(' ')
            .append(IpAddresses.format(src)).append('>').append(IpAddresses.format(dst)).append(' ')
            .append(direction()).append(' ').append(opcodeName())
            .append(" psn=0x").append(String.format("%06x", psn & 0xFFFFFF))
            .append(" len=").append(length);
        if (syndrome >= 0) {
            sb.append(' ').append(aeth());
        }
        sb.append(' ').append(fate);
        if (arriveNs >= 0) {
            sb.append(" @").append(ms(arriveNs));
        }
        if (cause != null) {
            sb.append(" (").append(cause).append(')');
        }
        return sb.toString();
    }

    /**
     * "ack", "rnr_nak" or the NAK code, such as "nak:PSN_SEQUENCE_ERROR".
     *
     * @return the AETH's text
     */
    public String aeth() {
        if (syndrome < 0) {
            return "";
        }
        AethKind kind = AethSyndrome.kind(syndrome);
        return switch (kind) {
            case ACK -> "ack";
            case RNR_NAK -> "rnr_nak";
            case NAK -> "nak:" + AethSyndrome.nakCode(syndrome);
            default -> "aeth:0x" + Integer.toHexString(syndrome);
        };
    }

    private static String ms(long ns) {
        return String.format("%d.%06dms", ns / 1_000_000, ns % 1_000_000);
    }

    @Override
    public String toString() {
        return format();
    }
}
