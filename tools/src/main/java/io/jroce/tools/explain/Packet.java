package io.jroce.tools.explain;

import io.jroce.stack.pcap.PcapReader;
import io.jroce.stack.pcap.RoceFrame;
import io.jroce.stack.wire.AethKind;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.Operation;
import io.jroce.stack.wire.Position;

/**
 * One RoCEv2 packet as explain sees it: where and when it was captured and every transport field,
 * decoded once. The analysers read only these records, so a device's event log can feed them too.
 *
 * @param ordinal  its place among the capture's RoCE packets, from 0: a unique key
 * @param frame    the capture's frame number, from 1, as tshark counts
 * @param segment  0, or the packet's number from 1 within a GSO super-datagram of that frame
 * @param timeNs   capture time, nanoseconds since the epoch
 * @param src      sender, with the port it receives RoCE on when known
 * @param dst      receiver
 * @param udpSourcePort the UDP source port as captured
 * @param info     the opcode's row of the opcode table
 * @param bth      the Base Transport Header
 * @param ext      the extension headers the opcode carries
 * @param payload  payload bytes, without pad and ICRC
 * @param icrcOk   whether the ICRC verified
 * @param raw      the frame as captured, for {@code --packet}; null when fed from elsewhere
 * @param roce     the decoded frame, for {@code --packet}; null when fed from elsewhere
 */
record Packet(int ordinal, int frame, int segment, long timeNs, Endpoint src, Endpoint dst, int udpSourcePort,
              OpcodeInfo info, Bth bth, ExtHeaders ext, int payload, boolean icrcOk,
              PcapReader.Record raw, RoceFrame roce) {

    /** The BTH fields. */
    record Bth(int opcode, boolean solicited, boolean migReq, int padCount, int tver, int pKey, boolean fecn,
               boolean becn, int destQp, boolean ackReq, int psn) {
    }

    /** The frame number as printed: {@code 7}, or {@code 7.2} for the second packet of a GSO datagram. */
    String label() {
        return segment == 0 ? Integer.toString(frame) : frame + "." + segment;
    }

    int psn() {
        return bth.psn();
    }

    Operation operation() {
        return info.operation();
    }

    Position position() {
        return info.position();
    }

    boolean isRequest() {
        return info.isRequest();
    }

    /** An RC ACKNOWLEDGE or ATOMIC ACKNOWLEDGE, or a READ response with an AETH. */
    boolean hasAeth() {
        return ext.aeth() != null;
    }

    /** The kind of the AETH syndrome, or null without an AETH. */
    AethKind aethKind() {
        return ext.aeth() == null ? null : AethSyndrome.kind(ext.aeth().syndrome());
    }
}
