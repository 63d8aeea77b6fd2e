package io.jroce.stack.fault;

import io.jroce.stack.transport.IpAddresses;
import java.util.Arrays;

import io.jroce.stack.mad.MadHeaderFlyweight;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.Operation;

/**
 * Selects the packets a {@link FaultRule} acts on. Small predicates that compose:
 *
 * <pre>{@code
 * PacketMatch.operation(Operation.RDMA_READ_RESPONSE).and(PacketMatch.from("10.0.0.2"))
 * PacketMatch.acks().or(PacketMatch.naks())
 * }</pre>
 */
@FunctionalInterface
public interface PacketMatch {
    /**
     * Whether the packet is selected.
     *
     * @param p the packet being sent
     * @return true if the rule acts on it
     */
    boolean matches(OutgoingPacket p);

    /**
     * Packets both select.
     *
     * @param other the other predicate
     * @return a predicate of both
     */
    default PacketMatch and(PacketMatch other) {
        return p -> matches(p) && other.matches(p);
    }

    /**
     * Packets either selects.
     *
     * @param other the other predicate
     * @return a predicate of either
     */
    default PacketMatch or(PacketMatch other) {
        return p -> matches(p) || other.matches(p);
    }

    /**
     * Packets this one does not select.
     *
     * @return the opposite predicate
     */
    default PacketMatch negate() {
        return p -> !matches(p);
    }

    /**
     * Every packet.
     *
     * @return the predicate
     */
    static PacketMatch any() {
        return p -> true;
    }

    /**
     * Packets whose BTH opcode is one of {@code opcodes} (constants of {@link Opcode}).
     *
     * @param opcodes the opcodes
     * @return the predicate
     */
    static PacketMatch opcode(int... opcodes) {
        int[] sorted = opcodes.clone();
        Arrays.sort(sorted);
        return p -> Arrays.binarySearch(sorted, p.opcode()) >= 0;
    }

    /**
     * Packets of one operation, whatever their place in the message (FIRST, MIDDLE, ...).
     *
     * @param operation the operation
     * @return the predicate
     */
    static PacketMatch operation(Operation operation) {
        return p -> p.operation() == operation;
    }

    /**
     * Packets with BTH PSN {@code psn}.
     *
     * @param psn the 24-bit PSN
     * @return the predicate
     */
    static PacketMatch psn(int psn) {
        return p -> p.psn() == psn;
    }

    /**
     * Packets sent from the address {@code ipLiteral}.
     *
     * @param ipLiteral an IP address literal
     * @return the predicate
     */
    static PacketMatch from(String ipLiteral) {
        byte[] a = IpAddresses.toGidBytes(ipLiteral);
        return p -> Arrays.equals(p.src(), a);
    }

    /**
     * Packets sent to the address {@code ipLiteral}.
     *
     * @param ipLiteral an IP address literal
     * @return the predicate
     */
    static PacketMatch to(String ipLiteral) {
        byte[] a = IpAddresses.toGidBytes(ipLiteral);
        return p -> Arrays.equals(p.dst(), a);
    }

    /**
     * Packets a requester sends (SEND, WRITE, READ request, atomics).
     *
     * @return the predicate
     */
    static PacketMatch requests() {
        return p -> {
            OpcodeInfo info = p.info();
            return info != null && info.isRequest();
        };
    }

    /**
     * Packets a responder sends (ACKs, NAKs, READ responses, atomic acknowledgements).
     *
     * @return the predicate
     */
    static PacketMatch responses() {
        return p -> {
            OpcodeInfo info = p.info();
            return info != null && info.isResponse();
        };
    }

    /**
     * ACKNOWLEDGE packets that are positive ACKs (not NAKs).
     *
     * @return the predicate
     */
    static PacketMatch acks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.ACK;
    }

    /**
     * ACKNOWLEDGE packets that are NAKs (sequence error, invalid request, access, operational).
     *
     * @return the predicate
     */
    static PacketMatch naks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.NAK;
    }

    /**
     * CM messages (IBTA 12.6) of one attribute: UD SEND Only packets to QP1 whose MAD is of the CM's
     * management class, with attribute ID {@code attributeId} (a constant of
     * {@code io.jroce.stack.mad.MadHeaderFlyweight}: REQ 0x10, REP 0x13, RTU 0x14, DREQ 0x15, ...). With
     * {@link FaultRule#occurrence} it selects "the first REQ", "the second DREQ".
     *
     * @param attributeId the MAD attribute ID
     * @return the predicate
     */
    static PacketMatch cm(int attributeId) {
        return p -> p.madClass() == MadHeaderFlyweight.MGMT_CLASS_CM && p.madAttributeId() == attributeId;
    }

    /**
     * ACKNOWLEDGE packets that are RNR NAKs.
     *
     * @return the predicate
     */
    static PacketMatch rnrNaks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.RNR_NAK;
    }
}
