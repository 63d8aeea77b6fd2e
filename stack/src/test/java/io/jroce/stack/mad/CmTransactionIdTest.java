package io.jroce.stack.mad;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CmTransactionIdTest {
    @Test
    void formsTheTidAsTheKernelSendsIt() {
        // rxe-cm_rej.pcap: the REQ of comm ID 0xbabcab87 carries TID 0x0000000287abbcba.
        assertEquals(0x0000_0002_87ab_bcbaL, CmTransactionId.form(2, 0xbabc_ab87));
        // rxe-rping.pcap: comm ID 0xa9329b27, TID 0x00000002279b32a9.
        assertEquals(0x0000_0002_279b_32a9L, CmTransactionId.form(2, 0xa932_9b27));
    }

    @Test
    void takesTheTidApart() {
        long tid = CmTransactionId.form(0x8000_0001, 0x0102_0304);
        assertEquals(0x8000_0001_0403_0201L, tid, "a high counter bit does not spill into the comm ID");
        assertEquals(0x0102_0304, CmTransactionId.commId(tid));
        assertEquals(0x8000_0001, CmTransactionId.hiTid(tid));
        assertEquals(0x0000_0000_8000_00FFL, CmTransactionId.form(0, 0xFF00_0080), "the comm ID is not sign-extended");
    }
}
