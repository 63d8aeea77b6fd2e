package io.jroce.tools.explain;

import io.jroce.stack.wire.BthFlyweight;
import io.jroce.stack.wire.ExtensionHeader;
import io.jroce.stack.wire.OpcodeInfo;
import io.jroce.stack.wire.RocePacket;

/** Copies the fields of a packet wrapped by the stack's {@link RocePacket} into records. */
final class PacketDecoder {
    /** What one packet holds. */
    record Fields(OpcodeInfo info, Packet.Bth bth, ExtHeaders ext, int payload) {
    }

    Fields decode(RocePacket p) {
        OpcodeInfo info = p.info();
        BthFlyweight b = p.bth();
        Packet.Bth bth = new Packet.Bth(b.opcode(), b.solicitedEvent(), b.migReq(), b.padCount(), b.transportVersion(),
            b.partitionKey(), b.fecn(), b.becn(), b.destQp(), b.ackRequest(), b.psn());
        ExtHeaders ext = new ExtHeaders(
            info.has(ExtensionHeader.DETH) ? new ExtHeaders.Deth(p.deth().qKey(), p.deth().sourceQp()) : null,
            info.has(ExtensionHeader.RETH)
                ? new ExtHeaders.Reth(p.reth().virtualAddress(), p.reth().rKey(), p.reth().dmaLength()) : null,
            info.has(ExtensionHeader.ATOMIC_ETH) ? new ExtHeaders.AtomicEth(p.atomicEth().virtualAddress(),
                p.atomicEth().rKey(), p.atomicEth().swapAddData(), p.atomicEth().compareData()) : null,
            info.has(ExtensionHeader.AETH) ? new ExtHeaders.Aeth(p.aeth().syndrome(), p.aeth().msn()) : null,
            info.has(ExtensionHeader.ATOMIC_ACK_ETH) ? p.atomicAckEth().originalRemoteData() : null,
            info.has(ExtensionHeader.IMM_DT) ? p.immDt().immediateData() : null,
            info.has(ExtensionHeader.IETH) ? p.ieth().rKey() : null);
        return new Fields(info, bth, ext, p.payloadLength());
    }
}
