package io.jroce.tests.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;

import io.jroce.rnic.SoftRnic;
import io.jroce.rnic.cm.api.RdmaCm;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.cm.PortSpace;
import io.jroce.verbs.cm.RdmaCmEvent;
import io.jroce.verbs.cm.RdmaCmEventType;
import io.jroce.verbs.cm.RdmaCmId;
import io.jroce.verbs.cm.RdmaEventChannel;

/**
 * The fixture of the RDMA CM tests over real UDP: two jroce devices on one host, the server "srv" on
 * 127.0.0.1 and the client "cli" on 127.0.0.2, both on one free UDP port P (their own and their
 * peers'), an event channel and a {@link Side} each; the IDs a test made have their QPs closed after
 * it, so that a failed test still frees its devices. Events are asserted in order, every wait bounded
 * by a generous timeout.
 */
abstract class CmUdpPair {
    /** Generous: TimeWait alone lasts about 2 s (cm_convert_to_ms(packet life 18 + 1)). */
    static final long WAIT_S = 30;

    final int udpPort = freePort();
    final RdmaDevice serverDev = SoftRnic.builder().name("srv").address("127.0.0.1").udpPort(udpPort).open();
    final RdmaDevice clientDev = SoftRnic.builder().name("cli").address("127.0.0.2").udpPort(udpPort).open();
    final RdmaEventChannel serverCh = RdmaCm.createEventChannel();
    final RdmaEventChannel clientCh = RdmaCm.createEventChannel();
    final Side server;
    final Side client;
    /** Every ID a test made, so that a failed test still frees its QPs and devices. */
    final List<RdmaCmId> ids = new ArrayList<>();

    /** The sides' regions get {@code access}; their CQs hold 16 completions. */
    CmUdpPair(int access) {
        this(access, Side.CQ_DEPTH);
    }

    CmUdpPair(int access, int cqDepth) {
        server = new Side(serverDev, access, cqDepth);
        client = new Side(clientDev, access, cqDepth);
    }

    /** A device's PD, a CQ and a 4 KiB region, closed before the device. */
    static final class Side {
        static final int CQ_DEPTH = 16;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemoryRegion mr;

        Side(RdmaDevice d, int access) {
            this(d, access, CQ_DEPTH);
        }

        Side(RdmaDevice d, int access, int cqDepth) {
            pd = d.allocPd();
            cq = d.createCq(cqDepth);
            mr = pd.allocateMemory(4096, access);
        }

        /** An RC QP's attributes on the side's CQ. */
        QpInitAttributes qpAttrs() {
            return new QpInitAttributes().cq(cq).maxSendWr(8).maxRecvWr(8).maxSendSge(1).maxRecvSge(1);
        }

        /** A UD QP's attributes on the side's CQ. */
        QpInitAttributes udAttrs() {
            return qpAttrs().type(QpType.UD);
        }

        WorkCompletion completion() throws InterruptedException {
            WorkCompletion wc = new WorkCompletion();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (!cq.poll(wc)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no completion within " + WAIT_S + " s");
                }
                Thread.sleep(1);
            }
            return wc;
        }

        void close() {
            mr.close();
            cq.close();
            pd.close();
        }
    }

    /** A UDP port free on 127.0.0.1 now. */
    static int freePort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The next event, which must be of {@code type}; acknowledged. */
    static RdmaCmEvent expect(RdmaEventChannel ch, RdmaCmEventType type) throws InterruptedException {
        RdmaCmEvent e = ch.get(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(e, "no event within " + WAIT_S + " s, expected " + type);
        e.ack();
        assertEquals(type, e.type(), e.toString());
        return e;
    }

    /** A listener of {@code space} on the server's 127.0.0.1:{@code port}. */
    RdmaCmId listen(PortSpace space, int port, int backlog) {
        RdmaCmId listener = serverCh.createId(space);
        ids.add(listener);
        listener.bindAddr(new InetSocketAddress("127.0.0.1", port));
        listener.listen(backlog);
        return listener;
    }

    /** A client ID of {@code space} from 127.0.0.2 through ROUTE_RESOLVED toward 127.0.0.1:{@code port}, no QP yet. */
    RdmaCmId routedClient(PortSpace space, int port) throws InterruptedException {
        RdmaCmId id = clientCh.createId(space);
        ids.add(id);
        id.resolveAddr(new InetSocketAddress("127.0.0.2", 0), new InetSocketAddress("127.0.0.1", port), 2000);
        expect(clientCh, RdmaCmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        expect(clientCh, RdmaCmEventType.ROUTE_RESOLVED);
        return id;
    }

    @AfterEach
    void closePair() {
        for (RdmaCmId id : ids) {
            if (id.qp() != null) {
                try {
                    id.qp().close();
                } catch (RuntimeException alreadyClosed) {
                    // closed by the test
                }
            }
        }
        server.close();
        client.close();
        serverDev.close();
        clientDev.close();
    }
}
