package io.jroce.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A completion no poll filled reads as nothing, never as a success; a filled one prints what it holds. */
class WorkCompletionTest {
    @Test
    void anUnfilledCompletionIsNoSuccess() {
        WorkCompletion wc = new WorkCompletion();
        assertNull(wc.status());
        assertNull(wc.opcode());
        assertNotEquals(WcStatus.SUCCESS, wc.status());
        assertEquals("wc{empty: no poll has filled it}", wc.toString());
    }

    @Test
    void aUdReceivePrintsItsSourceQp() {
        WorkCompletion wc = new WorkCompletion().start(7, WcOpcode.RECV, 0x12).byteLen(64).srcQp(0x34);
        assertEquals("wc{wr_id=7, status=SUCCESS, opcode=RECV, byte_len=64, qp_num=0x12, src_qp=0x34}", wc.toString());
        WorkCompletion copy = new WorkCompletion().copyFrom(wc);
        assertEquals(wc.toString(), copy.toString());
    }
}
