package io.jroce.stack.wire;

/**
 * The BTH opcode values jroce knows (IBTA Vol. 1 9.2, Table 38; CNP from Annex A17). The top three
 * bits name the transport, the low five the operation. Their properties are in {@link OpcodeTable}.
 */
public final class Opcode {
    public static final int RC_SEND_FIRST = 0x00;
    public static final int RC_SEND_MIDDLE = 0x01;
    public static final int RC_SEND_LAST = 0x02;
    public static final int RC_SEND_LAST_WITH_IMMEDIATE = 0x03;
    public static final int RC_SEND_ONLY = 0x04;
    public static final int RC_SEND_ONLY_WITH_IMMEDIATE = 0x05;
    public static final int RC_RDMA_WRITE_FIRST = 0x06;
    public static final int RC_RDMA_WRITE_MIDDLE = 0x07;
    public static final int RC_RDMA_WRITE_LAST = 0x08;
    public static final int RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
    public static final int RC_RDMA_WRITE_ONLY = 0x0A;
    public static final int RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
    public static final int RC_RDMA_READ_REQUEST = 0x0C;
    public static final int RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    public static final int RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    public static final int RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    public static final int RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    public static final int RC_ACKNOWLEDGE = 0x11;
    public static final int RC_ATOMIC_ACKNOWLEDGE = 0x12;
    public static final int RC_COMPARE_SWAP = 0x13;
    public static final int RC_FETCH_ADD = 0x14;
    public static final int RC_SEND_LAST_WITH_INVALIDATE = 0x16;
    public static final int RC_SEND_ONLY_WITH_INVALIDATE = 0x17;

    public static final int UC_SEND_FIRST = 0x20;
    public static final int UC_SEND_MIDDLE = 0x21;
    public static final int UC_SEND_LAST = 0x22;
    public static final int UC_SEND_LAST_WITH_IMMEDIATE = 0x23;
    public static final int UC_SEND_ONLY = 0x24;
    public static final int UC_SEND_ONLY_WITH_IMMEDIATE = 0x25;
    public static final int UC_RDMA_WRITE_FIRST = 0x26;
    public static final int UC_RDMA_WRITE_MIDDLE = 0x27;
    public static final int UC_RDMA_WRITE_LAST = 0x28;
    public static final int UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29;
    public static final int UC_RDMA_WRITE_ONLY = 0x2A;
    public static final int UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2B;

    public static final int UD_SEND_ONLY = 0x64;
    public static final int UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;

    public static final int CNP = 0x81;

    private Opcode() {
    }
}
