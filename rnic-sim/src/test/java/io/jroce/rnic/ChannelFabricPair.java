package io.jroce.rnic;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AsyncEvent;
import io.jroce.verbs.AsyncEventType;
import io.jroce.verbs.CompletionChannel;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WorkCompletion;

/**
 * Two devices on a simulated fabric, each with a completion channel, one CQ on it (send and
 * receive) and a connected RC QP, and a list that records the device's asynchronous events. The
 * fabric is single-threaded, so the listener runs on the test's thread and events are taken with
 * {@link #takeEvent} (a zero timeout) after running the fabric.
 */
final class ChannelFabricPair implements AutoCloseable {
    static final long MAX_RUN_NS = 60_000_000_000L;
    final SimulatedFabric fabric = new SimulatedFabric();
    final Side a;
    final Side b;

    static final class Side {
        final RdmaDevice device;
        final List<AsyncEvent> asyncEvents = new ArrayList<>();
        final ProtectionDomain pd;
        final CompletionChannel channel;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;

        Side(SimulatedFabric fabric, String name, String address, int cqEntries) {
            device = SoftRnic.builder().name(name).address(address).openOn(fabric);
            device.asyncEventListener(asyncEvents::add);
            pd = device.allocPd();
            channel = device.createCompletionChannel();
            cq = device.createCq(cqEntries, channel);
            qp = pd.createQp(new QpInitAttributes().cq(cq).maxSendWr(64).maxRecvWr(64));
            mr = pd.allocateMemory(4096, FabricPair.ACCESS);
        }

        /** The async events of {@code type} received so far. */
        List<AsyncEvent> events(AsyncEventType type) {
            return asyncEvents.stream().filter(e -> e.type() == type).toList();
        }

        void close() {
            qp.close();
            mr.close();
            cq.close();
            channel.close();
            pd.close();
            device.close();
        }
    }

    ChannelFabricPair() {
        this(64);
    }

    ChannelFabricPair(int cqEntries) {
        a = new Side(fabric, "jroce0", "10.0.0.1", cqEntries);
        b = new Side(fabric, "jroce1", "10.0.0.2", cqEntries);
        QpConnector rc = QpConnector.rc().accessFlags(FabricPair.ACCESS);
        rc.connect(a.qp, 0x100, RemoteQp.of(b.qp, 0x200, b.device.gids().get(0)));
        rc.connect(b.qp, 0x200, RemoteQp.of(a.qp, 0x100, a.device.gids().get(0)));
    }

    /** Runs the fabric until {@code n} completions are on {@code cq}, and returns them. */
    List<WorkCompletion> await(CompletionQueue cq, int n) {
        return FabricCompletions.await(fabric, cq, n, MAX_RUN_NS, () -> "");
    }

    /** Runs the fabric until nothing is left to do for 100 ms of virtual time. */
    void settle() {
        fabric.runFor(100_000_000L);
    }

    /** The next event on {@code s}'s channel, or null: never waits (the fabric runs on this thread). */
    static CompletionQueue takeEvent(Side s) {
        try {
            return s.channel.getEvent(0, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Closes both sides; resources a test closed already are skipped (close is idempotent). */
    @Override
    public void close() {
        a.close();
        b.close();
    }
}
