package io.jroce.tests.rc;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.Node;
import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One device pair per test class, a registered region on each side, and one RC connection per
 * option set, reused by the tests of the class. A connection that a failing test may have left
 * in a bad state (ERR, stray completions, receives still posted) is replaced before the next test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RcTestBase {
    static final int ALL_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
        | AccessFlags.REMOTE_ATOMIC;

    /** Counters whose growth during a test means a malformed packet went over the wire. */
    static final String[] MALFORMED = {"drop_bad_icrc", "drop_truncated", "drop_unknown_opcode", "drop_bad_tver",
        "drop_bad_length", "drop_bad_pad"};

    RcPair pair;
    MemoryRegion memA;
    MemoryRegion memB;
    private final Map<String, RcConnection> connections = new HashMap<>();
    private RcConnection inUse;
    private boolean passed;

    /** The loopback address both devices use. */
    String address() {
        return "127.0.0.1";
    }

    /** Size of the region registered on each side. */
    abstract int memoryLength();

    @BeforeAll
    void openPair() {
        pair = RcPair.open(address(), Mtu.MTU_4096);
        memA = pair.a().allocateMemory(memoryLength(), ALL_ACCESS);
        memB = pair.b().allocateMemory(memoryLength(), ALL_ACCESS);
    }

    @AfterAll
    void closePair() {
        if (pair != null) {
            pair.close();
        }
    }

    /**
     * The connection for {@code key}, made with {@code options} the first time. Call
     * {@link #passed()} at the end of a test; otherwise the connection is replaced for the next one.
     */
    RcConnection connection(String key, RcConnection.Options options) {
        RcConnection c = connections.get(key);
        if (c == null || !c.healthy()) {
            if (c != null) {
                pair.disconnect(c);
            }
            c = pair.connect(options);
            connections.put(key, c);
        }
        inUse = c;
        passed = false;
        return c;
    }

    /** Marks the connection of the current test as clean for reuse. */
    void passed() {
        passed = true;
    }

    @AfterEach
    void dropDirtyConnection() {
        if (inUse != null && !passed) {
            connections.values().remove(inUse);
            try {
                pair.disconnect(inUse);
            } catch (RuntimeException ignored) {
                // the test failed already; this is only cleanup
            }
        }
        inUse = null;
    }

    static WorkCompletion await(CompletionQueue cq, String what, RcConnection c) {
        return Completions.await(cq, what, c::diagnostics);
    }

    /** Asserts a successful completion with every field a test can know in advance. */
    static void assertCompletion(WorkCompletion wc, String what, long wrId, Object opcode, int byteLen, int qpNum) {
        assertEquals(WcStatus.SUCCESS, wc.status(), what + " status: " + wc);
        assertEquals(wrId, wc.wrId(), what + " wr_id: " + wc);
        assertEquals(opcode, wc.opcode(), what + " opcode: " + wc);
        assertEquals(byteLen, wc.byteLen(), what + " byte_len: " + wc);
        assertEquals(qpNum, wc.qpNum(), what + " qp_num: " + wc);
    }

    static long delta(Map<String, Long> before, Node node, String counter) {
        return node.counter(counter) - before.get(counter);
    }

    /** No malformed-packet drop was counted on either side since the snapshots. */
    void assertNoMalformedPackets(Map<String, Long> beforeA, Map<String, Long> beforeB) {
        for (String name : MALFORMED) {
            assertEquals(0, delta(beforeA, pair.a(), name), "A " + name + "; " + pair.a().describeCounters());
            assertEquals(0, delta(beforeB, pair.b(), name), "B " + name + "; " + pair.b().describeCounters());
        }
    }

    /** Packets a message of {@code size} bytes takes at {@code mtu} bytes of payload each (at least one). */
    static int packets(long size, int mtu) {
        return size == 0 ? 1 : (int) ((size + mtu - 1) / mtu);
    }
}
