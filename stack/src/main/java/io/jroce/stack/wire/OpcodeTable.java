package io.jroce.stack.wire;

import static io.jroce.stack.wire.ExtensionHeader.AETH;
import static io.jroce.stack.wire.ExtensionHeader.ATOMIC_ACK_ETH;
import static io.jroce.stack.wire.ExtensionHeader.ATOMIC_ETH;
import static io.jroce.stack.wire.ExtensionHeader.DETH;
import static io.jroce.stack.wire.ExtensionHeader.IETH;
import static io.jroce.stack.wire.ExtensionHeader.IMM_DT;
import static io.jroce.stack.wire.ExtensionHeader.RETH;
import static io.jroce.stack.wire.Operation.ACKNOWLEDGE;
import static io.jroce.stack.wire.Operation.ATOMIC_ACKNOWLEDGE;
import static io.jroce.stack.wire.Operation.COMPARE_SWAP;
import static io.jroce.stack.wire.Operation.FETCH_ADD;
import static io.jroce.stack.wire.Operation.RDMA_READ_REQUEST;
import static io.jroce.stack.wire.Operation.RDMA_READ_RESPONSE;
import static io.jroce.stack.wire.Operation.RDMA_WRITE;
import static io.jroce.stack.wire.Operation.SEND;
import static io.jroce.stack.wire.Position.FIRST;
import static io.jroce.stack.wire.Position.LAST;
import static io.jroce.stack.wire.Position.MIDDLE;
import static io.jroce.stack.wire.Position.ONLY;
import static io.jroce.stack.wire.TransportType.RC;
import static io.jroce.stack.wire.TransportType.UC;
import static io.jroce.stack.wire.TransportType.UD;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The opcodes jroce speaks, from IBTA Vol. 1 1.4 section 9.2, Table 38 (RC, UC and UD; not RD,
 * nor 1.5's FLUSH and ATOMIC WRITE), plus the RoCEv2 CNP (Annex A17). Parsing, building and
 * sequencing all ask this one table which headers an opcode carries.
 */
public final class OpcodeTable {
    /** A CNP is a BTH followed by 16 reserved bytes (IBTA Annex A17), counted here as header. */
    public static final int CNP_RESERVED_LENGTH = 16;

    private static final OpcodeInfo[] TABLE = new OpcodeInfo[256];
    private static final List<OpcodeInfo> ALL;

    static {
        define(Opcode.RC_SEND_FIRST, "RC_SEND_FIRST", RC, SEND, FIRST);
        define(Opcode.RC_SEND_MIDDLE, "RC_SEND_MIDDLE", RC, SEND, MIDDLE);
        define(Opcode.RC_SEND_LAST, "RC_SEND_LAST", RC, SEND, LAST);
        define(Opcode.RC_SEND_LAST_WITH_IMMEDIATE, "RC_SEND_LAST_WITH_IMMEDIATE", RC, SEND, LAST, IMM_DT);
        define(Opcode.RC_SEND_ONLY, "RC_SEND_ONLY", RC, SEND, ONLY);
        define(Opcode.RC_SEND_ONLY_WITH_IMMEDIATE, "RC_SEND_ONLY_WITH_IMMEDIATE", RC, SEND, ONLY, IMM_DT);
        define(Opcode.RC_RDMA_WRITE_FIRST, "RC_RDMA_WRITE_FIRST", RC, RDMA_WRITE, FIRST, RETH);
        define(Opcode.RC_RDMA_WRITE_MIDDLE, "RC_RDMA_WRITE_MIDDLE", RC, RDMA_WRITE, MIDDLE);
        define(Opcode.RC_RDMA_WRITE_LAST, "RC_RDMA_WRITE_LAST", RC, RDMA_WRITE, LAST);
        define(Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", RC, RDMA_WRITE, LAST,
            IMM_DT);
        define(Opcode.RC_RDMA_WRITE_ONLY, "RC_RDMA_WRITE_ONLY", RC, RDMA_WRITE, ONLY, RETH);
        define(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", RC, RDMA_WRITE, ONLY,
            RETH, IMM_DT);
        define(Opcode.RC_RDMA_READ_REQUEST, "RC_RDMA_READ_REQUEST", RC, RDMA_READ_REQUEST, ONLY, RETH);
        // The middle response packets carry no AETH: only the first and last report the MSN.
        define(Opcode.RC_RDMA_READ_RESPONSE_FIRST, "RC_RDMA_READ_RESPONSE_FIRST", RC, RDMA_READ_RESPONSE, FIRST, AETH);
        define(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, "RC_RDMA_READ_RESPONSE_MIDDLE", RC, RDMA_READ_RESPONSE, MIDDLE);
        define(Opcode.RC_RDMA_READ_RESPONSE_LAST, "RC_RDMA_READ_RESPONSE_LAST", RC, RDMA_READ_RESPONSE, LAST, AETH);
        define(Opcode.RC_RDMA_READ_RESPONSE_ONLY, "RC_RDMA_READ_RESPONSE_ONLY", RC, RDMA_READ_RESPONSE, ONLY, AETH);
        define(Opcode.RC_ACKNOWLEDGE, "RC_ACKNOWLEDGE", RC, ACKNOWLEDGE, ONLY, AETH);
        define(Opcode.RC_ATOMIC_ACKNOWLEDGE, "RC_ATOMIC_ACKNOWLEDGE", RC, ATOMIC_ACKNOWLEDGE, ONLY, AETH,
            ATOMIC_ACK_ETH);
        define(Opcode.RC_COMPARE_SWAP, "RC_COMPARE_SWAP", RC, COMPARE_SWAP, ONLY, ATOMIC_ETH);
        define(Opcode.RC_FETCH_ADD, "RC_FETCH_ADD", RC, FETCH_ADD, ONLY, ATOMIC_ETH);
        define(Opcode.RC_SEND_LAST_WITH_INVALIDATE, "RC_SEND_LAST_WITH_INVALIDATE", RC, SEND, LAST, IETH);
        define(Opcode.RC_SEND_ONLY_WITH_INVALIDATE, "RC_SEND_ONLY_WITH_INVALIDATE", RC, SEND, ONLY, IETH);

        define(Opcode.UC_SEND_FIRST, "UC_SEND_FIRST", UC, SEND, FIRST);
        define(Opcode.UC_SEND_MIDDLE, "UC_SEND_MIDDLE", UC, SEND, MIDDLE);
        define(Opcode.UC_SEND_LAST, "UC_SEND_LAST", UC, SEND, LAST);
        define(Opcode.UC_SEND_LAST_WITH_IMMEDIATE, "UC_SEND_LAST_WITH_IMMEDIATE", UC, SEND, LAST, IMM_DT);
        define(Opcode.UC_SEND_ONLY, "UC_SEND_ONLY", UC, SEND, ONLY);
        define(Opcode.UC_SEND_ONLY_WITH_IMMEDIATE, "UC_SEND_ONLY_WITH_IMMEDIATE", UC, SEND, ONLY, IMM_DT);
        define(Opcode.UC_RDMA_WRITE_FIRST, "UC_RDMA_WRITE_FIRST", UC, RDMA_WRITE, FIRST, RETH);
        define(Opcode.UC_RDMA_WRITE_MIDDLE, "UC_RDMA_WRITE_MIDDLE", UC, RDMA_WRITE, MIDDLE);
        define(Opcode.UC_RDMA_WRITE_LAST, "UC_RDMA_WRITE_LAST", UC, RDMA_WRITE, LAST);
        define(Opcode.UC_RDMA_WRITE_LAST_WITH_IMMEDIATE, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", UC, RDMA_WRITE, LAST,
            IMM_DT);
        define(Opcode.UC_RDMA_WRITE_ONLY, "UC_RDMA_WRITE_ONLY", UC, RDMA_WRITE, ONLY, RETH);
        define(Opcode.UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", UC, RDMA_WRITE, ONLY,
            RETH, IMM_DT);

        define(Opcode.UD_SEND_ONLY, "UD_SEND_ONLY", UD, SEND, ONLY, DETH);
        define(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, "UD_SEND_ONLY_WITH_IMMEDIATE", UD, SEND, ONLY, DETH, IMM_DT);

        TABLE[Opcode.CNP] = new OpcodeInfo(Opcode.CNP, "CNP", TransportType.CNP, Operation.CNP, ONLY,
            CNP_RESERVED_LENGTH);

        List<OpcodeInfo> all = new ArrayList<>();
        for (OpcodeInfo info : TABLE) {
            if (info != null) {
                all.add(info);
            }
        }
        ALL = Collections.unmodifiableList(all);
    }

    private OpcodeTable() {
    }

    /** The opcode's properties, or null for an opcode jroce does not know (a packet to drop). */
    public static OpcodeInfo get(int opcode) {
        return (opcode & ~0xFF) == 0 ? TABLE[opcode] : null;
    }

    /** Every known opcode in ascending order; for tests and tools, not the packet path. */
    public static List<OpcodeInfo> all() {
        return ALL;
    }

    private static void define(int opcode, String name, TransportType transport, Operation operation,
                               Position position, ExtensionHeader... headers) {
        if (TABLE[opcode] != null || (opcode & 0xE0) != transport.opcodePrefix()) {
            throw new IllegalStateException("bad opcode table entry " + name);
        }
        TABLE[opcode] = new OpcodeInfo(opcode, name, transport, operation, position, 0, headers);
    }
}
