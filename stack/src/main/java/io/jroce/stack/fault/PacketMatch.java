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
    boolean matches(OutgoingPacket p);

    default PacketMatch and(PacketMatch other) {
        return p -> matches(p) && other.matches(p);
    }

    default PacketMatch or(PacketMatch other) {
        return p -> matches(p) || other.matches(p);
    }

    default PacketMatch negate() {
        return p -> !matches(p);
    }

    static PacketMatch any() {
        return p -> true;
    }

    /** Packets whose BTH opcode is one of {@code opcodes} (constants of {@link Opcode}). */
    static PacketMatch opcode(int... opcodes) {
        int[] sorted = opcodes.clone();
        Arrays.sort(sorted);
        return p -> Arrays.binarySearch(sorted, p.opcode()) >= 0;
    }

    /** Packets of one operation, whatever their place in the message (FIRST, MIDDLE, ...). */
    static PacketMatch operation(Operation operation) {
        return p -> p.operation() == operation;
    }

    static PacketMatch psn(int psn) {
        return p -> p.psn() == psn;
    }

    /** Packets sent from the address {@code ipLiteral}. */
    static PacketMatch from(String ipLiteral) {
        byte[] a = IpAddresses.toGidBytes(ipLiteral);
        return p -> Arrays.equals(p.src(), a);
    }

    /** Packets sent to the address {@code ipLiteral}. */
    static PacketMatch to(String ipLiteral) {
        byte[] a = IpAddresses.toGidBytes(ipLiteral);
        return p -> Arrays.equals(p.dst(), a);
    }

    /** Packets a requester sends (SEND, WRITE, READ request, atomics). */
    static PacketMatch requests() {
        return p -> {
            OpcodeInfo info = p.info();
            return info != null && info.isRequest();
        };
    }

    /** Packets a responder sends (ACKs, NAKs, READ responses, atomic acknowledgements). */
    static PacketMatch responses() {
        return p -> {
            OpcodeInfo info = p.info();
            return info != null && info.isResponse();
        };
    }

    /** ACKNOWLEDGE packets that are positive ACKs (not NAKs). */
    static PacketMatch acks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.ACK;
    }

    /** ACKNOWLEDGE packets that are NAKs (sequence error, invalid request, access, operational). */
    static PacketMatch naks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.NAK;
    }

    /**
     * CM messages (IBTA 12.6) of one attribute: UD SEND Only packets to QP1 whose MAD is of the CM's
     * management class, with attribute ID {@code attributeId} (a constant of
     * {@code io.jroce.stack.mad.MadHeaderFlyweight}: REQ 0x10, REP 0x13, RTU 0x14, DREQ 0x15, ...). With
     * {@link FaultRule#occurrence} it selects "the first REQ", "the second DREQ".
     */
    static PacketMatch cm(int attributeId) {
        return p -> p.madClass() == MadHeaderFlyweight.MGMT_CLASS_CM && p.madAttributeId() == attributeId;
    }

    /** ACKNOWLEDGE packets that are RNR NAKs. */
    static PacketMatch rnrNaks() {
        return p -> p.opcode() == Opcode.RC_ACKNOWLEDGE && p.aethKind() == AethKind.RNR_NAK;
    }
}
