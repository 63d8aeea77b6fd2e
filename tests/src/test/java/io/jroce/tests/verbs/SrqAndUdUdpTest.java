package io.jroce.tests.verbs;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.Node;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.SharedReceiveQueue;
import io.jroce.verbs.WcOpcode;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.jroce.testsupport.Patterns.bytes;
import static io.jroce.testsupport.Patterns.pattern;

/**
 * A shared receive queue feeding several RC QPs, and UD's Q_Key check, over real UDP sockets (two
 * devices on 127.0.0.1), with the received bytes checked exactly.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SrqAndUdUdpTest {
    private static final int LEN = 1 << 16;
    private static final int QKEY = 0x11111111;

    private Node a;
    private Node b;
    private MemoryRegion memA;
    private MemoryRegion memB;

    @BeforeEach
    void open() {
        a = Node.open("jrocesA", "127.0.0.1", Mtu.MTU_1024);
        b = Node.open("jrocesB", "127.0.0.1", Mtu.MTU_1024);
        memA = a.allocateMemory(LEN, AccessFlags.LOCAL_WRITE);
        memB = b.allocateMemory(LEN, AccessFlags.LOCAL_WRITE);
    }

    @AfterEach
    void close() {
        b.close();
        a.close();
    }

    @Test
    void threeQpsShareOneSrqAndItsLimitRaisesOneEvent() throws Exception {
        List<AsyncEvent> events = new CopyOnWriteArrayList<>();
        b.device().asyncEventListener(events::add);
        CompletionQueue cqA = a.createCq(64);
        CompletionQueue cqB = b.createCq(64);
        SharedReceiveQueue srq = b.own(b.pd().createSrq(32, 1));
        int n = 3;
        QueuePair[] qa = new QueuePair[n];
        QueuePair[] qb = new QueuePair[n];
        for (int i = 0; i < n; i++) {
            qa[i] = a.own(a.pd().createQp(new QpInitAttributes().type(QpType.RC).cq(cqA).maxSendWr(16).maxRecvWr(16)));
            qb[i] = b.own(b.pd().createQp(new QpInitAttributes().type(QpType.RC).cq(cqB).srq(srq)));
        }
        for (int i = 0; i < n; i++) {
            connect(qa[i], a, qb[i], b, 0x100 * i, 0x7000 + i);
            connect(qb[i], b, qa[i], a, 0x7000 + i, 0x100 * i);
        }
        // six receives of 2 KiB each; the limit fires once fewer than 4 remain
        int slot = 2048;
        memB.buffer().put(0, pattern(-1, 0, LEN));
        for (int k = 0; k < 6; k++) {
            srq.postRecv(new ReceiveWorkRequest().wrId(100 + k).sgList(ScatterGatherEntry.of(memB, (long) slot * k, slot)));
        }
        srq.armLimit(4);
        assertEquals(6, srq.available());
        assertEquals(4, srq.limit());

        // QP i sends a message of 1000 + 500 i bytes (1 or 2 packets) with seed 0x10 + i, one at a time
        Map<Integer, Integer> qpnToIndex = new HashMap<>();
        for (int i = 0; i < n; i++) {
            qpnToIndex.put(qb[i].qpNum(), i);
        }
        for (int i = 0; i < n; i++) {
            int len = 1000 + 500 * i;
            memA.buffer().put(4096 * i, pattern(0x10 + i, 0, len));
            qa[i].postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(memA, 4096L * i, len)));
            WorkCompletion s = Completions.await(cqA, "send " + i, () -> a.describeCounters() + " " + b.describeCounters());
            assertEquals(WcStatus.SUCCESS, s.status(), s.toString());
            WorkCompletion r = Completions.await(cqB, "SRQ receive " + i, () -> b.describeCounters());
            assertEquals(WcStatus.SUCCESS, r.status(), r.toString());
            assertEquals(WcOpcode.RECV, r.opcode(), r.toString());
            assertEquals(100 + i, r.wrId(), "SRQ receives are consumed in order: " + r);
            assertEquals(qb[i].qpNum(), r.qpNum(), "the completion names the receiving QP: " + r);
            assertEquals(i, qpnToIndex.get(r.qpNum()));
            assertEquals(len, r.byteLen(), r.toString());
            assertArrayEquals(pattern(0x10 + i, 0, len), bytes(memB, slot * i, len), "data received by QP " + i);
            assertArrayEquals(pattern(-1, 0, slot - len), bytes(memB, slot * i + len, slot - len), "rest of slot " + i);
        }
        assertEquals(3, srq.available());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.stream().noneMatch(e -> e.type() == AsyncEventType.SRQ_LIMIT_REACHED) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        List<AsyncEvent> limit = events.stream().filter(e -> e.type() == AsyncEventType.SRQ_LIMIT_REACHED).toList();
        assertEquals(1, limit.size(), "SRQ_LIMIT_REACHED events: " + events);
        assertEquals(srq, limit.get(0).resource(), "the event names the SRQ");
        assertEquals(0, srq.limit(), "the limit disarms when it fires");

        // one more message: no second event (disarmed); the remaining receives still serve every QP
        memA.buffer().put(0, pattern(0x20, 0, 300));
        qa[2].postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .sgList(ScatterGatherEntry.of(memA, 0, 300)));
        assertEquals(WcStatus.SUCCESS, Completions.await(cqA, "send 9", () -> b.describeCounters()).status());
        WorkCompletion r = Completions.await(cqB, "SRQ receive 9", () -> b.describeCounters());
        assertEquals(103, r.wrId(), r.toString());
        assertEquals(qb[2].qpNum(), r.qpNum(), r.toString());
        assertArrayEquals(pattern(0x20, 0, 300), bytes(memB, slot * 3, 300), "data of the fourth message");
        Thread.sleep(50);
        assertEquals(1, events.stream().filter(e -> e.type() == AsyncEventType.SRQ_LIMIT_REACHED).count(), events.toString());
    }

    @Test
    void udDropsADatagramWithAWrongQkeyAndDeliversTheRightOne() throws Exception {
        CompletionQueue cqA = a.createCq(64);
        CompletionQueue cqB = b.createCq(64);
        QueuePair ua = a.own(udQp(a, cqA));
        QueuePair ub = b.own(udQp(b, cqB));
        AddressHandle ah = a.own(a.pd().createAddressHandle(a.addressTo(b)));
        memB.buffer().put(0, pattern(-1, 0, 4096));
        ub.postRecv(new ReceiveWorkRequest().wrId(1).sgList(ScatterGatherEntry.of(memB, 0, 40 + 1024)));
        long dropsBefore = b.counter("drop_bad_qkey");

        memA.buffer().put(0, pattern(0x61, 0, 500));
        ua.postSend(new SendWorkRequest().wrId(10).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
            .ud(ah, ub.qpNum(), 0x1234).sgList(ScatterGatherEntry.of(memA, 0, 500)));
        WorkCompletion s = Completions.await(cqA, "UD send with a wrong Q_Key", b::describeCounters);
        assertEquals(WcStatus.SUCCESS, s.status(), "UD sends complete once sent: " + s);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (b.counter("drop_bad_qkey") == dropsBefore && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(dropsBefore + 1, b.counter("drop_bad_qkey"), b.describeCounters());
        WorkCompletion none = new WorkCompletion();
        assertFalse(cqB.poll(none), "the dropped datagram must not complete a receive: " + none);
        assertArrayEquals(pattern(-1, 0, 4096), bytes(memB, 0, 4096), "nothing written for the dropped datagram");

        memA.buffer().put(1000, pattern(0x62, 0, 700));
        ua.postSend(new SendWorkRequest().wrId(11).opcode(WrOpcode.SEND_WITH_IMM).immData(0x0BADCAFE)
            .sendFlags(SendFlags.SIGNALED).ud(ah, ub.qpNum(), QKEY).sgList(ScatterGatherEntry.of(memA, 1000, 700)));
        assertEquals(WcStatus.SUCCESS, Completions.await(cqA, "UD send", b::describeCounters).status());
        WorkCompletion r = Completions.await(cqB, "UD receive", b::describeCounters);
        assertEquals(WcStatus.SUCCESS, r.status(), r.toString());
        assertEquals(1, r.wrId());
        assertEquals(40 + 700, r.byteLen(), "byteLen counts the GRH: " + r);
        assertTrue(r.grh(), r.toString());
        assertTrue(r.withImm(), r.toString());
        assertEquals(0x0BADCAFE, r.immData(), r.toString());
        assertEquals(ua.qpNum(), r.srcQp(), r.toString());
        assertArrayEquals(pattern(0x62, 0, 700), bytes(memB, 40, 700), "the datagram after the GRH area");
        assertArrayEquals(pattern(-1, 0, 64), bytes(memB, 740, 64), "bytes after the datagram");
        assertEquals(dropsBefore + 1, b.counter("drop_bad_qkey"), "no further drop");
    }

    private static QueuePair udQp(Node n, CompletionQueue cq) {
        QueuePair qp = n.pd().createQp(new QpInitAttributes().type(QpType.UD).cq(cq).maxSendWr(16).maxRecvWr(16));
        QpConnector.ud(QKEY).activate(qp, 0x42);
        return qp;
    }

    /** Brings {@code self} to RTS towards {@code peer}: it sends from {@code sqPsn} and expects {@code rqPsn}. */
    private static void connect(QueuePair self, Node selfNode, QueuePair peer, Node peerNode, int sqPsn, int rqPsn) {
        QpConnector.rc().accessFlags(0).rdAtomic(1).minRnrTimer(1).sgidIndex(selfNode.gidIndex())
            .connect(self, sqPsn, RemoteQp.of(peer, rqPsn, peerNode.gid(), peerNode.port()));
    }
}
