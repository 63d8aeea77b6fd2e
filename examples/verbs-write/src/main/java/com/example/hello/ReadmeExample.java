package com.example.hello;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Two RNICs on loopback; one RDMA WRITEs a greeting into the other's memory. */
public final class ReadmeExample {
    /**
     * Runs the example.
     *
     * @param args not used
     * @throws InterruptedException interrupted while waiting for the completion
     */
    public static void main(String[] args) throws InterruptedException {
        try (RdmaDevice alice = SoftRnic.builder().name("jroce0").address("127.0.0.1").open();
             RdmaDevice bob = SoftRnic.builder().name("jroce1").address("127.0.0.2").open();
             ProtectionDomain pdA = alice.allocPd();
             ProtectionDomain pdB = bob.allocPd();
             MemoryRegion src = pdA.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
             MemoryRegion dst = pdB.allocateMemory(4096, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
             CompletionQueue cqA = alice.createCq(16);
             CompletionQueue cqB = bob.createCq(16);
             QueuePair qpA = pdA.createQp(new QpInitAttributes().type(QpType.RC).cq(cqA));
             QueuePair qpB = pdB.createQp(new QpInitAttributes().type(QpType.RC).cq(cqB))) {
            // RESET -> INIT -> RTR -> RTS towards the peer, with what real applications exchange
            // out of band (TCP, RDMA CM): its QPN, the first PSN it sends, its GID.
            QpConnector rc = QpConnector.rc();
            rc.connect(qpA, 0x1000, new RemoteQp(qpB.qpNum(), 0x2000, bob.gids().get(0)));
            rc.connect(qpB, 0x2000, new RemoteQp(qpA.qpNum(), 0x1000, alice.gids().get(0)));

            byte[] hello = "hello, RDMA".getBytes(StandardCharsets.US_ASCII);
            src.buffer().put(0, hello);
            qpA.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(src, 0, hello.length))
                .remoteAddress(dst.address()).rkey(dst.rkey()));

            WorkCompletion wc = new WorkCompletion();
            if (!cqA.pollBlocking(wc, 10, TimeUnit.SECONDS) || wc.status() != WcStatus.SUCCESS) {
                throw new IllegalStateException("RDMA WRITE did not complete: " + wc);
            }
            byte[] landed = new byte[hello.length];
            dst.buffer().get(0, landed);
            System.out.println(new String(landed, StandardCharsets.US_ASCII)); // hello, RDMA
        }
    }
}
