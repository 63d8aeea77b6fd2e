package io.jroce.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.jroce.verbs.spi.CompletionWriter;

/**
 * A completion no poll filled reads as nothing, never as a success; a filled one prints what it holds;
 * an application can read it and copy it, only the RNIC's writer fills it.
 */
class WorkCompletionTest {
    private static final CompletionWriter WC = CompletionWriter.get();

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
        WorkCompletion wc = WC.set(new WorkCompletion(), 7, WcStatus.SUCCESS, WcOpcode.RECV, 64, false, 0, 0x12, 0x34, 0);
        assertEquals("wc{wr_id=7, status=SUCCESS, opcode=RECV, byte_len=64, qp_num=0x12, src_qp=0x34}", wc.toString());
        WorkCompletion copy = new WorkCompletion().copyFrom(wc);
        assertEquals(wc.toString(), copy.toString());
    }

    @Test
    void aCopyCarriesTheFlags() {
        WorkCompletion wc = WC.start(new WorkCompletion(), 1, WcOpcode.RECV, 0x12);
        WC.grh(wc, true);
        WC.invalidatedRkey(wc, 0xabcd);
        WC.immData(wc, 5);
        WorkCompletion copy = new WorkCompletion().copyFrom(wc);
        assertTrue(copy.grh());
        assertTrue(copy.withInv());
        assertEquals(0xabcd, copy.invalidatedRkey());
        assertTrue(copy.withImm());
        assertEquals(5, copy.immData());
        assertEquals("the completion to copy is null",
            assertThrows(InvalidAttributeException.class, () -> copy.copyFrom(null)).getMessage());
    }

    /** The public surface: getters, copyFrom and toString; nothing that writes a field. */
    @Test
    void applicationsCannotWriteAField() {
        List<String> writers = Arrays.stream(WorkCompletion.class.getMethods())
            .filter(m -> m.getDeclaringClass() == WorkCompletion.class && !Modifier.isStatic(m.getModifiers()))
            .filter(m -> m.getParameterCount() > 0 && !m.getName().equals("copyFrom") && !m.getName().equals("equals"))
            .map(Method::getName).toList();
        assertEquals(List.of(), writers);
    }

    @Test
    void noOtherWriterCanRegister() {
        CompletionWriter forged = new CompletionWriter() {
            @Override
            public WorkCompletion set(WorkCompletion wc, long wrId, WcStatus status, WcOpcode opcode, int byteLen,
                                      boolean withImm, int immData, int qpNum, int srcQp, int vendorErr) {
                return wc;
            }

            @Override
            public void status(WorkCompletion wc, WcStatus status) {
            }

            @Override
            public void byteLen(WorkCompletion wc, int byteLen) {
            }

            @Override
            public void immData(WorkCompletion wc, int immData) {
            }

            @Override
            public void srcQp(WorkCompletion wc, int srcQp) {
            }

            @Override
            public void grh(WorkCompletion wc, boolean grh) {
            }

            @Override
            public void invalidatedRkey(WorkCompletion wc, int rkey) {
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CompletionWriter.register(forged));
        assertEquals("only WorkCompletion registers the completion writer", e.getMessage());
    }
}
