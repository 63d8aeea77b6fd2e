package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;

/**
 * The scatter/gather list of a work request is the caller's: another thread may change an entry
 * after postSend checked the message length (an atomic's 8 bytes, max_msg_sz, max_inline_data) and
 * before it copied the entries into the WQE. The WQE then kept the checked length over entries
 * that no longer hold it: an atomic's result written 8 bytes into a 4-byte entry at the end of its
 * region, or a message gathered past its last entry from entries a former WQE of the slot left.
 * postSend must refuse such a request (and bind only what it checked). The tests hold the send queue's lock so that the change
 * lands exactly between the check and the copy.
 */
class PostSendListChangeTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;

    @Test
    void anEntryChangedBetweenTheChecksAndTheCopyIsRefused() throws Exception {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice dev = SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
        ProtectionDomain pd = dev.allocPd();
        CompletionQueue cq = dev.createCq(16);
        MemoryRegion mr = pd.allocateMemory(4096, ACCESS);
        SoftQp qp = (SoftQp) pd.createQp(new QpInitAttributes().type(QpType.RC).cq(cq).maxSendWr(8).maxRecvWr(8));
        QpConnector.rc().accessFlags(ACCESS).connect(qp, 0, RemoteQp.of(qp, 0, dev.gids().get(0))); // to itself

        ScatterGatherEntry entry = new ScatterGatherEntry(mr.address() + 4088, 8, mr.lkey());
        SendWorkRequest wr = new SendWorkRequest().wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).sgList(entry)
            .remoteAddress(mr.address()).rkey(mr.rkey()).compareAdd(1);
        Throwable thrown = postWhileChanged(qp, wr, () -> entry.set(mr.address() + 4092, 4, mr.lkey()));
        assertInstanceOf(InvalidAttributeException.class, thrown, "the changed request is refused");
        fabric.runUntil(() -> false, 1_000_000_000L);
        assertEquals(QpState.RTS, qp.state(), "nothing went out of the region, nothing failed the QP");
    }

    /** The same for a BIND_MW: the bind executed is the one checked, not one changed since. */
    @Test
    void aBindChangedAfterItsChecksBindsWhatWasChecked() throws Exception {
        SimulatedFabric fabric = new SimulatedFabric();
        RdmaDevice dev = SoftRnic.builder().name("a").address("10.0.0.1").openOn(fabric);
        ProtectionDomain pd = dev.allocPd();
        CompletionQueue cq = dev.createCq(16);
        MemoryRegion mr = pd.allocateMemory(4096, ACCESS | AccessFlags.MW_BIND);
        MemoryWindow mw = pd.allocMemoryWindow(2);
        SoftQp qp = (SoftQp) pd.createQp(new QpInitAttributes().type(QpType.RC).cq(cq).maxSendWr(8).maxRecvWr(8));
        QpConnector.rc().accessFlags(ACCESS).connect(qp, 0, RemoteQp.of(qp, 0, dev.gids().get(0)));

        SendWorkRequest wr = new SendWorkRequest().wrId(1).opcode(WrOpcode.BIND_MW).sendFlags(SendFlags.SIGNALED)
            .bindMw(mw, mw.nextRkey(), mr, mr.address(), 4096, AccessFlags.REMOTE_WRITE);
        Throwable thrown = postWhileChanged(qp, wr,
            () -> wr.bindMw(mw, mw.nextRkey(), mr, mr.address(), 1 << 20, AccessFlags.REMOTE_WRITE)); // 1 MiB
        assertEquals(null, thrown);
        WorkCompletion wc = new WorkCompletion();
        fabric.runUntil(() -> cq.poll(wc), 1_000_000_000L);
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(4096, ((SoftMw) mw).length, "the window covers what was checked, inside its region");
    }

    /**
     * Posts {@code wr} on another thread, holding the send queue's lock until that thread has made
     * its checks and waits to copy the request, runs {@code change} then, and returns what the post threw.
     */
    private static Throwable postWhileChanged(SoftQp qp, SendWorkRequest wr, Runnable change) throws Exception {
        Field lockField = SoftQp.class.getDeclaredField("sqLock");
        lockField.setAccessible(true);
        Object sqLock = lockField.get(qp);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread poster = new Thread(() -> {
            try {
                qp.postSend(wr);
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "poster");
        synchronized (sqLock) {
            poster.start();
            while (poster.getState() != Thread.State.BLOCKED) { // checked, waiting to copy the request
                Thread.sleep(1);
            }
            change.run();
        }
        poster.join();
        return thrown.get();
    }
}
