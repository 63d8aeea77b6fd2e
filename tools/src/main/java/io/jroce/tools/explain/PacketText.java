package io.jroce.tools.explain;

import io.jroce.stack.wire.Opcode;

/** The one-line label of a packet on its ladder arrow: opcode, PSN, flags, sizes and the headers that matter. */
final class PacketText {
    private PacketText() {
    }

    static String label(Packet p) {
        StringBuilder sb = new StringBuilder(p.info().name()).append(" psn ").append(p.psn());
        if (p.bth().ackReq()) {
            sb.append(" AckReq");
        }
        if (p.bth().solicited()) {
            sb.append(" SE");
        }
        if (p.bth().fecn()) {
            sb.append(" FECN");
        }
        if (p.bth().becn()) {
            sb.append(" BECN");
        }
        ExtHeaders e = p.ext();
        if (e.deth() != null) {
            sb.append(String.format(" src QP 0x%06x qkey 0x%08x", e.deth().sourceQp(), e.deth().qKey()));
        }
        if (e.reth() != null) {
            sb.append(String.format(" va 0x%x rkey 0x%08x len %d", e.reth().virtualAddress(), e.reth().rKey(),
                e.reth().dmaLength()));
        }
        if (e.atomicEth() != null) {
            sb.append(String.format(" va 0x%x rkey 0x%08x", e.atomicEth().virtualAddress(), e.atomicEth().rKey()));
            if (p.bth().opcode() == Opcode.RC_COMPARE_SWAP) {
                sb.append(String.format(" compare 0x%x swap 0x%x", e.atomicEth().compare(), e.atomicEth().swapAdd()));
            } else {
                sb.append(String.format(" add 0x%x", e.atomicEth().swapAdd()));
            }
        }
        if (e.aeth() != null) {
            sb.append(" msn ").append(e.aeth().msn()).append(' ').append(AethText.syndrome(e.aeth().syndrome()));
        }
        if (e.atomicAck() != null) {
            sb.append(String.format(" orig 0x%x", e.atomicAck()));
        }
        if (e.immDt() != null) {
            sb.append(String.format(" imm 0x%08x", e.immDt()));
        }
        if (e.ieth() != null) {
            sb.append(String.format(" inv rkey 0x%08x", e.ieth()));
        }
        if (p.info().hasPayload()) {
            sb.append(' ').append(p.payload()).append(" B");
        }
        return sb.toString();
    }
}
