package io.jroce.stack.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One RoCEv2 packet, BTH onwards and without its ICRC, seen through one reusable flyweight per
 * header. {@link #wrap} checks a received packet against the opcode table; {@link #build} lays out
 * a packet to send. An instance belongs to one thread and is reused for every packet.
 */
public final class RocePacket {
    private final BthFlyweight bth = new BthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();

    private OpcodeInfo info;
    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int payloadLength;

    /**
     * Reads a received packet. On {@link ParseResult#OK} the flyweights of the headers its opcode
     * carries are wrapped; on anything else the packet is to be counted and dropped.
     *
     * @param length bytes from the BTH to the end of the pad (the ICRC already removed); they must
     *               lie within the buffer
     */
    public ParseResult wrap(DirectBuffer buffer, int offset, int length) {
        this.info = null;
        if (length < BthFlyweight.LENGTH) {
            return ParseResult.TRUNCATED;
        }
        bth.wrap(buffer, offset);
        OpcodeInfo opcodeInfo = OpcodeTable.get(bth.opcode());
        if (opcodeInfo == null) {
            return ParseResult.UNKNOWN_OPCODE;
        }
        if (bth.transportVersion() != BthFlyweight.TRANSPORT_VERSION) {
            return ParseResult.BAD_TRANSPORT_VERSION;
        }
        int payload = length - opcodeInfo.headerLength() - bth.padCount();
        if (payload < 0) {
            return ParseResult.TRUNCATED;
        }
        // PadCnt is the number of bytes that bring the payload to a multiple of 4 (IBTA Vol. 1
        // 9.2): with pad in 0..3, payload + pad must be a whole number of words, i.e. pad ==
        // (-payload) & 3. rxe checks this only in its responder, for the last packet of an RDMA
        // WRITE (rxe_resp.c, check_rkey: RESPST_ERR_LENGTH); jroce refuses every such packet here.
        if (((payload + bth.padCount()) & 3) != 0) {
            return ParseResult.BAD_PAD;
        }
        attach(buffer, offset, length, opcodeInfo, payload);
        return ParseResult.OK;
    }

    /**
     * Lays out a packet of {@code opcode} with room for {@code payloadLength} bytes: zeroes the
     * headers and the pad, writes the opcode and the pad count, and wraps the flyweights for the
     * caller to fill in. The payload itself is the caller's to copy to {@link #payloadOffset()}.
     *
     * @return the packet length, BTH to the end of the pad, without the ICRC
     * @throws IllegalArgumentException for an opcode missing from {@link OpcodeTable}
     */
    public int build(MutableDirectBuffer buffer, int offset, int opcode, int payloadLength) {
        OpcodeInfo opcodeInfo = OpcodeTable.get(opcode);
        if (opcodeInfo == null) {
            throw new IllegalArgumentException("unknown opcode 0x" + Integer.toHexString(opcode));
        }
        int pad = RoceV2.padCount(payloadLength);
        int packetLength = opcodeInfo.headerLength() + payloadLength + pad;
        buffer.boundsCheck(offset, packetLength);
        buffer.setMemory(offset, opcodeInfo.headerLength(), (byte) 0);
        buffer.setMemory(offset + packetLength - pad, pad, (byte) 0);
        bth.wrap(buffer, offset).opcode(opcode).padCount(pad).transportVersion(BthFlyweight.TRANSPORT_VERSION);
        attach(buffer, offset, packetLength, opcodeInfo, payloadLength);
        return packetLength;
    }

    private void attach(DirectBuffer buffer, int offset, int length, OpcodeInfo opcodeInfo, int payload) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.payloadLength = payload;
        this.info = opcodeInfo;
        int mask = opcodeInfo.headerMask();
        if (mask == 0) {
            return;
        }
        if ((mask & ExtensionHeader.DETH.mask()) != 0) {
            deth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.DETH));
        }
        if ((mask & ExtensionHeader.RETH.mask()) != 0) {
            reth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.RETH));
        }
        if ((mask & ExtensionHeader.ATOMIC_ETH.mask()) != 0) {
            atomicEth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.ATOMIC_ETH));
        }
        if ((mask & ExtensionHeader.AETH.mask()) != 0) {
            aeth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.AETH));
        }
        if ((mask & ExtensionHeader.ATOMIC_ACK_ETH.mask()) != 0) {
            atomicAckEth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.ATOMIC_ACK_ETH));
        }
        if ((mask & ExtensionHeader.IMM_DT.mask()) != 0) {
            immDt.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.IMM_DT));
        }
        if ((mask & ExtensionHeader.IETH.mask()) != 0) {
            ieth.wrap(buffer, offset + opcodeInfo.offset(ExtensionHeader.IETH));
        }
    }

    /** The opcode's properties; null until a packet was wrapped with {@link ParseResult#OK} or built. */
    public OpcodeInfo info() {
        return info;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    /** Where the BTH starts in {@link #buffer()}. */
    public int offset() {
        return offset;
    }

    /** BTH to the end of the pad. */
    public int length() {
        return length;
    }

    /** Where the payload starts in {@link #buffer()}. */
    public int payloadOffset() {
        return offset + info.headerLength();
    }

    /** Payload bytes, without the pad. */
    public int payloadLength() {
        return payloadLength;
    }

    public BthFlyweight bth() {
        return bth;
    }

    // The views below point at the current packet only if info().has(...) says it carries that header.

    public DethFlyweight deth() {
        return deth;
    }

    public RethFlyweight reth() {
        return reth;
    }

    public AtomicEthFlyweight atomicEth() {
        return atomicEth;
    }

    public AethFlyweight aeth() {
        return aeth;
    }

    public AtomicAckEthFlyweight atomicAckEth() {
        return atomicAckEth;
    }

    public ImmDtFlyweight immDt() {
        return immDt;
    }

    public IethFlyweight ieth() {
        return ieth;
    }
}
