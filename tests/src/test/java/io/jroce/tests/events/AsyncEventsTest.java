package io.jroce.tests.events;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.Node;
import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A device's asynchronous events over UDP (IBTA Vol. 1 11.6.3): PORT_ACTIVE to the first listener
 * and PORT_ERR when the device closes, CQ_ERR once when a CQ overflows, QP_FATAL for the
 * requester's QP after a remote access error. Listeners run on the device's I/O thread and hand
 * events to the test through a queue.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AsyncEventsTest {
    private static final int LEN = 64 * 1024;

    private RcPair pair;
    private MemoryRegion memA;
    private MemoryRegion memB;
    private RcConnection conn;

    @BeforeAll
    void openPair() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_4096);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        memA = pair.a().allocateMemory(LEN, access);
        memB = pair.b().allocateMemory(LEN, access);
    }

    @AfterAll
    void closePair() {
        if (pair != null) {
            pair.close();
        }
    }

    @AfterEach
    void disconnect() {
        pair.a().device().asyncEventListener(null);
        if (conn != null) {
            pair.disconnect(conn);
            conn = null;
        }
    }

    private static BlockingQueue<AsyncEvent> listen(RdmaDevice device) {
        BlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();
        device.asyncEventListener(events::add);
        return events;
    }

    /** The next event of {@code type}, skipping others (a first listener also gets PORT_ACTIVE). */
    private static AsyncEvent awaitEvent(BlockingQueue<AsyncEvent> events, AsyncEventType type, String what)
        throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Completions.TIMEOUT_SECONDS);
        while (true) {
            AsyncEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                fail("no " + type + " for " + what + " within " + Completions.TIMEOUT_SECONDS + " s");
            }
            if (e.type() == type) {
                return e;
            }
        }
    }

    /** The events up to and including the next one of {@code type}. */
    private static List<AsyncEvent> eventsUntil(BlockingQueue<AsyncEvent> events, AsyncEventType type, String what)
        throws InterruptedException {
        List<AsyncEvent> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Completions.TIMEOUT_SECONDS);
        while (seen.isEmpty() || seen.get(seen.size() - 1).type() != type) {
            AsyncEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                fail("no " + type + " for " + what + " within " + Completions.TIMEOUT_SECONDS + " s; got " + seen);
            }
            seen.add(e);
        }
        return seen;
    }

    private SendWorkRequest write(long wrId, int rkey) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
            .remoteAddress(memB.address()).rkey(rkey).sgList(ScatterGatherEntry.of(memA, 0, 64));
    }

    @Test
    void portActiveGoesToTheFirstListenerAndPortErrComesWhenTheDeviceCloses() throws InterruptedException {
        RdmaDevice device = Node.openDevice("jroceev", "127.0.0.1", null, null).device();
        BlockingQueue<AsyncEvent> events;
        try {
            events = listen(device);
            assertEquals(new AsyncEvent(AsyncEventType.PORT_ACTIVE, null, 1),
                awaitEvent(events, AsyncEventType.PORT_ACTIVE, "a device opened before the listener was set"));
        } finally {
            device.close();
        }
        assertEquals(new AsyncEvent(AsyncEventType.PORT_ERR, null, 1),
            awaitEvent(events, AsyncEventType.PORT_ERR, "closing the device"));
        assertNull(events.poll(), "nothing after PORT_ERR");
    }

    @Test
    void aCqOverflowRaisesCqErrOnce() throws InterruptedException {
        conn = pair.connect(new RcConnection.Options().cqEntries(1));
        BlockingQueue<AsyncEvent> events = listen(pair.a().device());
        for (int i = 1; i <= 3; i++) {
            conn.qpA.postSend(write(i, memB.rkey()));
        }
        AsyncEvent err = awaitEvent(events, AsyncEventType.CQ_ERR, "three completions on a CQ of one entry");
        assertSame(conn.sendCqA, err.resource());
        assertEquals(0, err.portNum());
        // The CQ stays full (nothing is polled), so the next completions overflow too. A failing write
        // last: its QP_FATAL comes after every earlier completion was pushed, so the count is final.
        conn.qpA.postSend(write(4, memB.rkey()));
        conn.qpA.postSend(write(5, memB.rkey() ^ 0x00ff0000));
        List<AsyncEvent> later = eventsUntil(events, AsyncEventType.QP_FATAL, "the failing write behind the overflow");
        assertTrue(later.stream().noneMatch(e -> e.type() == AsyncEventType.CQ_ERR), "a second CQ_ERR: " + later);
        WorkCompletion first = Completions.await(conn.sendCqA, "the completion that fitted", conn::diagnostics);
        assertEquals(1, first.wrId(), first.toString());
    }

    @Test
    void aRemoteAccessErrorRaisesQpFatalForTheRequestersQp() throws InterruptedException {
        conn = pair.connect(new RcConnection.Options());
        BlockingQueue<AsyncEvent> events = listen(pair.a().device());
        conn.qpA.postSend(write(9, memB.rkey() ^ 0x00ff0000));
        WorkCompletion wc = Completions.await(conn.sendCqA, "a write with an rkey B never issued", conn::diagnostics);
        assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
        AsyncEvent fatal = awaitEvent(events, AsyncEventType.QP_FATAL, "the remote access error");
        assertSame(conn.qpA, fatal.resource());
        assertEquals(0, fatal.portNum());
    }
}
