package io.jroce.stack.wire;

import java.util.Arrays;

/**
 * Everything the opcode alone says about a packet: its transport, operation and place in the
 * message, and which extension headers follow the BTH at which offsets. Immutable; one instance
 * per opcode, held by {@link OpcodeTable}.
 */
public final class OpcodeInfo {
    /** What {@link #offset} returns for a header the opcode does not carry. */
    public static final int ABSENT = -1;

    private final int opcode;
    private final String name;
    private final TransportType transport;
    private final Operation operation;
    private final Position position;
    private final int headerMask;
    private final int headerLength;
    private final int[] offsets;

    /**
     * @param extraHeaderBytes bytes after the extension headers that belong to the header, not the
     *                         payload: the 16 reserved bytes of a CNP, else 0
     */
    OpcodeInfo(int opcode, String name, TransportType transport, Operation operation, Position position,
               int extraHeaderBytes, ExtensionHeader... headers) {
        this.opcode = opcode;
        this.name = name;
        this.transport = transport;
        this.operation = operation;
        this.position = position;
        int mask = 0;
        for (ExtensionHeader h : headers) {
            mask |= h.mask();
        }
        this.headerMask = mask;
        // Offsets follow the wire order, the declaration order of ExtensionHeader, whatever the argument order.
        this.offsets = new int[ExtensionHeader.values().length];
        Arrays.fill(offsets, ABSENT);
        int next = BthFlyweight.LENGTH;
        for (ExtensionHeader h : ExtensionHeader.values()) {
            if ((mask & h.mask()) != 0) {
                offsets[h.ordinal()] = next;
                next += h.length();
            }
        }
        this.headerLength = next + extraHeaderBytes;
    }

    public int opcode() {
        return opcode;
    }

    /** The name in the style of the constants in {@link Opcode}, such as "RC_SEND_FIRST". */
    public String name() {
        return name;
    }

    public TransportType transport() {
        return transport;
    }

    public Operation operation() {
        return operation;
    }

    public Position position() {
        return position;
    }

    public boolean isRequest() {
        return operation.isRequest();
    }

    public boolean isResponse() {
        return operation.isResponse();
    }

    public boolean hasImmediate() {
        return has(ExtensionHeader.IMM_DT);
    }

    public boolean hasInvalidate() {
        return has(ExtensionHeader.IETH);
    }

    /** Packets with this opcode may carry payload bytes (possibly none, as in a zero-length SEND). */
    public boolean hasPayload() {
        return operation.hasPayload();
    }

    public boolean has(ExtensionHeader header) {
        return (headerMask & header.mask()) != 0;
    }

    /** One bit per {@link ExtensionHeader#mask()} the opcode carries. */
    public int headerMask() {
        return headerMask;
    }

    /** Where {@code header} starts, counted from the start of the BTH, or {@link #ABSENT}. */
    public int offset(ExtensionHeader header) {
        return offsets[header.ordinal()];
    }

    /** BTH and every extension header (and a CNP's reserved bytes): where the payload starts. */
    public int headerLength() {
        return headerLength;
    }

    @Override
    public String toString() {
        return name + "(0x" + Integer.toHexString(opcode) + ")";
    }
}
