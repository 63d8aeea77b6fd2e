package io.jroce.tests.verbs;

import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ResourceLimitException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * allocateMemory at the edge of what it can make: sizes near max_mr_size once passed the limit
 * check and then failed inside Agrona with "capacity < 0"; each now gets the API's typed
 * exception, and the device stays usable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AllocationLimitsTest {
    private RcPair pair;

    @BeforeAll
    void open() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_1024);
    }

    @AfterAll
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void sizesWhosePageAlignedAllocationOverflowsAnIntAreRefusedTyped() {
        ProtectionDomain pd = pair.a().pd();
        long maxMrSize = pair.a().device().queryDevice().maxMrSize();
        int[] sizes = {Integer.MAX_VALUE, (int) (maxMrSize - 4096), Integer.MAX_VALUE - 4095, Integer.MAX_VALUE - 8190};
        for (int size : sizes) {
            ResourceLimitException e = assertThrows(ResourceLimitException.class,
                () -> pd.allocateMemory(size, AccessFlags.LOCAL_WRITE), "allocateMemory(" + size + ")");
            assertTrue(e.getMessage().contains(String.valueOf(size)), e.getMessage());
        }
        assertThrows(InvalidAttributeException.class, () -> pd.allocateMemory(0, AccessFlags.LOCAL_WRITE));
        assertThrows(InvalidAttributeException.class, () -> pd.allocateMemory(-1, AccessFlags.LOCAL_WRITE));
        assertEquals(4096, pair.a().allocateMemory(4096, AccessFlags.LOCAL_WRITE).length(), "the PD still allocates");
    }
}
