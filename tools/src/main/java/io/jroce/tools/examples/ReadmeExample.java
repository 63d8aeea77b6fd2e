package io.jroce.tools.examples;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.Gid;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.QpAttributes;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpState;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;
import io.jroce.verbs.RdmaDevice;
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
            // What real applications exchange out of band (TCP, RDMA CM): QPN, PSN and GID.
            connect(qpA, bob.gids().get(0), qpB.qpNum(), 0x2000, 0x1000);
            connect(qpB, alice.gids().get(0), qpA.qpNum(), 0x1000, 0x2000);

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

    /** RESET -> INIT -> RTR -> RTS towards the peer. */
    static void connect(QueuePair qp, Gid peerGid, int peerQpn, int peerPsn, int myPsn) {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).portNum(1)
            .accessFlags(AccessFlags.REMOTE_WRITE));
        qp.modify(new QpAttributes().state(QpState.RTR).pathMtu(Mtu.MTU_1024)
            .addressVector(new AddressVector().destGid(peerGid).sgidIndex(0))
            .destQpNum(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(myPsn)
            .timeout(14).retryCount(7).rnrRetry(7).maxRdAtomic(1));
    }
}
