package io.jroce.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpcodeTableTest {
    /**
     * IBTA Vol. 1 1.4, Table 38, transcribed a second time, in another form, to check the table
     * against: opcode, name, position, extension headers in wire order, header length from the BTH.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
        0x00 | RC_SEND_FIRST                     | FIRST  |                 | 12
        0x01 | RC_SEND_MIDDLE                    | MIDDLE |                 | 12
        0x02 | RC_SEND_LAST                      | LAST   |                 | 12
        0x03 | RC_SEND_LAST_WITH_IMMEDIATE       | LAST   | IMM_DT          | 16
        0x04 | RC_SEND_ONLY                      | ONLY   |                 | 12
        0x05 | RC_SEND_ONLY_WITH_IMMEDIATE       | ONLY   | IMM_DT          | 16
        0x06 | RC_RDMA_WRITE_FIRST               | FIRST  | RETH            | 28
        0x07 | RC_RDMA_WRITE_MIDDLE              | MIDDLE |                 | 12
        0x08 | RC_RDMA_WRITE_LAST                | LAST   |                 | 12
        0x09 | RC_RDMA_WRITE_LAST_WITH_IMMEDIATE | LAST   | IMM_DT          | 16
        0x0A | RC_RDMA_WRITE_ONLY                | ONLY   | RETH            | 28
        0x0B | RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE | ONLY   | RETH IMM_DT     | 32
        0x0C | RC_RDMA_READ_REQUEST              | ONLY   | RETH            | 28
        0x0D | RC_RDMA_READ_RESPONSE_FIRST       | FIRST  | AETH            | 16
        0x0E | RC_RDMA_READ_RESPONSE_MIDDLE      | MIDDLE |                 | 12
        0x0F | RC_RDMA_READ_RESPONSE_LAST        | LAST   | AETH            | 16
        0x10 | RC_RDMA_READ_RESPONSE_ONLY        | ONLY   | AETH            | 16
        0x11 | RC_ACKNOWLEDGE                    | ONLY   | AETH            | 16
        0x12 | RC_ATOMIC_ACKNOWLEDGE             | ONLY   | AETH ATOMIC_ACK_ETH | 24
        0x13 | RC_COMPARE_SWAP                   | ONLY   | ATOMIC_ETH      | 40
        0x14 | RC_FETCH_ADD                      | ONLY   | ATOMIC_ETH      | 40
        0x16 | RC_SEND_LAST_WITH_INVALIDATE      | LAST   | IETH            | 16
        0x17 | RC_SEND_ONLY_WITH_INVALIDATE      | ONLY   | IETH            | 16
        0x20 | UC_SEND_FIRST                     | FIRST  |                 | 12
        0x21 | UC_SEND_MIDDLE                    | MIDDLE |                 | 12
        0x22 | UC_SEND_LAST                      | LAST   |                 | 12
        0x23 | UC_SEND_LAST_WITH_IMMEDIATE       | LAST   | IMM_DT          | 16
        0x24 | UC_SEND_ONLY                      | ONLY   |                 | 12
        0x25 | UC_SEND_ONLY_WITH_IMMEDIATE       | ONLY   | IMM_DT          | 16
        0x26 | UC_RDMA_WRITE_FIRST               | FIRST  | RETH            | 28
        0x27 | UC_RDMA_WRITE_MIDDLE              | MIDDLE |                 | 12
        0x28 | UC_RDMA_WRITE_LAST                | LAST   |                 | 12
        0x29 | UC_RDMA_WRITE_LAST_WITH_IMMEDIATE | LAST   | IMM_DT          | 16
        0x2A | UC_RDMA_WRITE_ONLY                | ONLY   | RETH            | 28
        0x2B | UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE | ONLY   | RETH IMM_DT     | 32
        0x64 | UD_SEND_ONLY                      | ONLY   | DETH            | 20
        0x65 | UD_SEND_ONLY_WITH_IMMEDIATE       | ONLY   | DETH IMM_DT     | 24
        0x81 | CNP                               | ONLY   |                 | 28
        """)
    void matchesTable38(String opcodeHex, String name, Position position, String headers, int headerLength) {
        OpcodeInfo info = OpcodeTable.get(Integer.decode(opcodeHex));

        assertNotNull(info);
        assertEquals(name, info.name());
        assertEquals(position, info.position());
        assertEquals(headerLength, info.headerLength());
        int next = BthFlyweight.LENGTH;
        Set<ExtensionHeader> expected = EnumSet.noneOf(ExtensionHeader.class);
        for (String h : headers == null ? new String[0] : headers.trim().split(" +")) {
            ExtensionHeader header = ExtensionHeader.valueOf(h);
            expected.add(header);
            assertEquals(next, info.offset(header), name + " " + header);
            next += header.length();
        }
        for (ExtensionHeader header : ExtensionHeader.values()) {
            assertEquals(expected.contains(header), info.has(header), name + " " + header);
            if (!expected.contains(header)) {
                assertEquals(OpcodeInfo.ABSENT, info.offset(header));
            }
        }
        assertEquals(expected.contains(ExtensionHeader.IMM_DT), info.hasImmediate());
        assertEquals(expected.contains(ExtensionHeader.IETH), info.hasInvalidate());
    }

    @Test
    void knowsNoOtherOpcode() {
        Set<Integer> known = new TreeSet<>();
        for (int opcode = 0; opcode < 256; opcode++) {
            if (OpcodeTable.get(opcode) != null) {
                known.add(opcode);
            }
        }
        assertEquals(38, known.size(), known.toString());
        assertEquals(38, OpcodeTable.all().size());
        assertNull(OpcodeTable.get(0x15), "reserved in RC");
        assertNull(OpcodeTable.get(0x18), "1.5 FLUSH");
        assertNull(OpcodeTable.get(0x19), "1.5 ATOMIC WRITE");
        assertNull(OpcodeTable.get(0x40), "RD");
        assertNull(OpcodeTable.get(0x80), "CNP's neighbour");
        assertNull(OpcodeTable.get(-1));
        assertNull(OpcodeTable.get(256));
    }

    @Test
    void eachEntryIsTheOneForItsOwnValue() {
        for (OpcodeInfo info : OpcodeTable.all()) {
            assertSame(info, OpcodeTable.get(info.opcode()));
            assertEquals(info.transport().opcodePrefix(), info.opcode() & 0xE0, info.name());
            assertTrue(info.name().startsWith(info.transport().name()), info.name());
        }
    }

    @Test
    void namesAreTheOpcodeConstantNames() throws IllegalAccessException {
        int constants = 0;
        for (Field f : Opcode.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                OpcodeInfo info = OpcodeTable.get(f.getInt(null));
                assertNotNull(info, f.getName());
                assertEquals(f.getName(), info.name());
                constants++;
            }
        }
        assertEquals(OpcodeTable.all().size(), constants);
    }

    @Test
    void operationsFollowFromTheNames() {
        for (OpcodeInfo info : OpcodeTable.all()) {
            String n = info.name();
            Operation expected = n.contains("RDMA_READ_REQUEST") ? Operation.RDMA_READ_REQUEST
                : n.contains("RDMA_READ_RESPONSE") ? Operation.RDMA_READ_RESPONSE
                : n.contains("RDMA_WRITE") ? Operation.RDMA_WRITE
                : n.contains("ATOMIC_ACKNOWLEDGE") ? Operation.ATOMIC_ACKNOWLEDGE
                : n.contains("ACKNOWLEDGE") ? Operation.ACKNOWLEDGE
                : n.contains("COMPARE_SWAP") ? Operation.COMPARE_SWAP
                : n.contains("FETCH_ADD") ? Operation.FETCH_ADD
                : n.contains("SEND") ? Operation.SEND
                : Operation.CNP;
            assertEquals(expected, info.operation(), n);
        }
    }

    @Test
    void requestsResponsesAndPayloads() {
        Set<Operation> requests = EnumSet.of(Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_REQUEST,
            Operation.COMPARE_SWAP, Operation.FETCH_ADD);
        Set<Operation> responses = EnumSet.of(Operation.RDMA_READ_RESPONSE, Operation.ACKNOWLEDGE,
            Operation.ATOMIC_ACKNOWLEDGE);
        Set<Operation> withPayload = EnumSet.of(Operation.SEND, Operation.RDMA_WRITE, Operation.RDMA_READ_RESPONSE);
        for (OpcodeInfo info : OpcodeTable.all()) {
            assertEquals(requests.contains(info.operation()), info.isRequest(), info.name());
            assertEquals(responses.contains(info.operation()), info.isResponse(), info.name());
            assertEquals(withPayload.contains(info.operation()), info.hasPayload(), info.name());
        }
        OpcodeInfo cnp = OpcodeTable.get(Opcode.CNP);
        assertFalse(cnp.isRequest());
        assertFalse(cnp.isResponse());
        assertEquals(TransportType.CNP, cnp.transport());
    }

    @Test
    void positionsSayWhereMessagesStartAndEnd() {
        assertTrue(Position.FIRST.startsMessage());
        assertFalse(Position.FIRST.endsMessage());
        assertFalse(Position.MIDDLE.startsMessage());
        assertFalse(Position.MIDDLE.endsMessage());
        assertFalse(Position.LAST.startsMessage());
        assertTrue(Position.LAST.endsMessage());
        assertTrue(Position.ONLY.startsMessage());
        assertTrue(Position.ONLY.endsMessage());
    }
}
