package io.jroce.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The numbers are libibverbs' (verbs.h), which rxe's peers report and rdma-core's tools print. */
class WcCodesTest {
    @Test
    void statusCodesAreThoseOfIbvWcStatus() {
        assertEquals(0, WcStatus.SUCCESS.code());
        assertEquals(5, WcStatus.WR_FLUSH_ERR.code());
        assertEquals(10, WcStatus.REM_ACCESS_ERR.code());
        assertEquals(12, WcStatus.RETRY_EXC_ERR.code());
        assertEquals(13, WcStatus.RNR_RETRY_EXC_ERR.code());
        assertEquals(21, WcStatus.GENERAL_ERR.code());
        for (WcStatus s : WcStatus.values()) {
            assertEquals(s, WcStatus.fromCode(s.code()));
        }
        assertThrows(IllegalArgumentException.class, () -> WcStatus.fromCode(22));
        assertThrows(IllegalArgumentException.class, () -> WcStatus.fromCode(-1));
    }

    @Test
    void opcodeCodesAreThoseOfIbvWcOpcode() {
        assertEquals(0, WcOpcode.SEND.code());
        assertEquals(1, WcOpcode.RDMA_WRITE.code());
        assertEquals(2, WcOpcode.RDMA_READ.code());
        assertEquals(3, WcOpcode.COMP_SWAP.code());
        assertEquals(4, WcOpcode.FETCH_ADD.code());
        assertEquals(5, WcOpcode.BIND_MW.code());
        assertEquals(6, WcOpcode.LOCAL_INV.code());
        assertEquals(128, WcOpcode.RECV.code());
        assertEquals(129, WcOpcode.RECV_RDMA_WITH_IMM.code());
        for (WcOpcode op : WcOpcode.values()) {
            assertEquals(op, WcOpcode.fromCode(op.code()));
        }
        assertThrows(IllegalArgumentException.class, () -> WcOpcode.fromCode(7)); // IBV_WC_TSO: not a verb of jroce
    }
}
