package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.testsupport.QpConnector;
import io.jroce.testsupport.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/**
 * The scatter/gather list of a work request is the caller's: another thread may change an entry
 * after postSend checked the message length (an atomic's 8 bytes, max_msg_sz, max_inline_data) and
 * before it copied the entries into the WQE. The WQE then kept the checked length over entries
 * that no longer hold it: an atomic's result written 8 bytes into a 4-byte entry at the end of its
 * region, or a message gathered past its last entry from entries a former WQE of the slot left.
 * postSend must refuse such a request. The test holds the send queue's lock so that the change
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
            while (poster.getState() != Thread.State.BLOCKED) { // checked, waiting to copy the entries
                Thread.sleep(1);
            }
            entry.set(mr.address() + 4092, 4, mr.lkey()); // now 4 bytes, at the region's very end
        }
        poster.join();
        assertInstanceOf(InvalidAttributeException.class, thrown.get(), "the changed request is refused");
        fabric.runUntil(() -> false, 1_000_000_000L);
        assertEquals(QpState.RTS, qp.state(), "nothing went out of the region, nothing failed the QP");
    }
}
