package io.jroce.tools.lesson;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The fields of one lesson frame that its why depends on, read with the stack's flyweights.
 *
 * @param info     the opcode's row
 * @param psn      the BTH PSN
 * @param ackReq   the BTH AckReq bit
 * @param payload  payload bytes
 * @param syndrome the AETH syndrome, or -1
 * @param msn      the AETH MSN, or -1
 * @param dmaLength the RETH DMA length, or -1
 * @param original the ATOMIC ACKNOWLEDGE's original remote data
 * @param add      the AtomicETH's add (or swap) operand
 * @param mad      the payload of a datagram to QP1 (a MAD of the GSI), else null
 */
record FrameFields(OpcodeInfo info, int psn, boolean ackReq, int payload, int syndrome, int msn, long dmaLength,
             long original, long add, byte[] mad) {
    /** The General Services Interface's QP, which carries the CM's MADs. */
    static final int GSI_QPN = 1;

    static FrameFields of(WireFrame f) {
        RocePacket p = new RocePacket();
        ParseResult r = p.wrap(new UnsafeBuffer(f.roce()), 0, f.roce().length - IcrcCalculator.ICRC_LENGTH);
        if (r != ParseResult.OK) {
            throw new IllegalStateException("frame " + f.number() + " does not parse: " + r);
        }
        OpcodeInfo info = p.info();
        boolean aeth = info.has(ExtensionHeader.AETH);
        return new FrameFields(info, p.bth().psn(), p.bth().ackRequest(), p.payloadLength(),
            aeth ? p.aeth().syndrome() : -1, aeth ? p.aeth().msn() : -1,
            info.has(ExtensionHeader.RETH) ? p.reth().dmaLength() : -1,
            info.has(ExtensionHeader.ATOMIC_ACK_ETH) ? p.atomicAckEth().originalRemoteData() : 0,
            info.has(ExtensionHeader.ATOMIC_ETH) ? p.atomicEth().swapAddData() : 0, mad(p));
    }

    private static byte[] mad(RocePacket p) {
        if (!p.info().has(ExtensionHeader.DETH) || p.bth().destQp() != GSI_QPN) {
            return null;
        }
        byte[] mad = new byte[p.payloadLength()];
        p.buffer().getBytes(p.payloadOffset(), mad);
        return mad;
    }
}
