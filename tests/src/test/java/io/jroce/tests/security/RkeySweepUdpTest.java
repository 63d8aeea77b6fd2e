package io.jroce.tests.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.jroce.stack.wire.Opcode;
import io.jroce.tests.support.Node;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.CompletionQueue;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.QpInitAttributes;
import io.jroce.verbs.QpType;
import io.jroce.verbs.QueuePair;

/**
 * The blind rkey sweep of the security review, over real UDP: UC needs no valid PSN and drops a
 * wrong guess silently, so an attacker can try keys as fast as it can send. With keys of the form
 * {@code index << 8 | variant} (the old scheme, index counting up from 1) the sweep below found the
 * victim's region; with random 32-bit keys none of its 4,096 guesses may land, and each must be
 * counted as a UC access drop.
 */
class RkeySweepUdpTest {
    private static final int PEER_QPN = 0x5151;
    private static final int LENGTH = 4096;
    private static final int GUESS_BYTES = 16;
    /** Guesses sent before each in-band marker: few enough to fit the victim's socket buffer. */
    private static final int BATCH = 256;

    private Node victim;
    private ForgedPeer peer;

    @BeforeEach
    void open() throws Exception {
        victim = Node.open("jrocesweep", ForgedPeer.ADDRESS, ForgedPeer.MTU);
        peer = new ForgedPeer(victim);
    }

    @AfterEach
    void close() {
        peer.close();
        victim.close();
    }

    /** A UC QP of the victim connected to the forged peer (UC has no timers, retries or rd_atomic). */
    private QueuePair ucQp() {
        CompletionQueue cq = victim.createCq(16);
        QueuePair qp = victim.own(victim.pd().createQp(new QpInitAttributes().type(QpType.UC).sendCq(cq).recvCq(cq)
            .maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1)));
        QpConnector.uc().accessFlags(AccessFlags.REMOTE_WRITE).pathMtu(ForgedPeer.MTU).sgidIndex(victim.gidIndex())
            .connect(qp, 0, peer.peerAt(PEER_QPN, 0));
        return qp;
    }

    @Test
    void aBlindUcSweepOfTheOldKeySchemeLandsNothing() throws Exception {
        QueuePair qp = ucQp();
        MemoryRegion region = victim.allocateMemory(LENGTH, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        ByteBuffer memory = region.buffer();
        byte[] guess = new byte[GUESS_BYTES];
        Arrays.fill(guess, (byte) 0xAA);
        int psn = 0;
        int guesses = 0;
        int marker = 0;
        for (int index = 1; index <= 16; index++) {
            for (int variant = 0; variant < 256; variant++) {
                // With random keys one of these 4,096 is the region's with probability about 2^-20.
                write(qp, psn++, region.address(), index << 8 | variant, guess);
                guesses++;
                if (guesses % BATCH == 0) {
                    psn = writeMarker(qp, psn, region, ++marker);
                }
            }
        }
        psn = writeMarker(qp, psn, region, ++marker);

        // Only the markers' bytes (offset LENGTH - 16 on) ever changed: no guess reached the region.
        byte[] untouched = new byte[LENGTH - GUESS_BYTES];
        byte[] now = new byte[untouched.length];
        memory.duplicate().position(0).get(now);
        assertArrayEquals(untouched, now, "a guessed rkey wrote into the victim's region");
        assertEquals(guesses, victim.counter("drop_uc_access"), "every wrong guess is dropped and counted");
        assertEquals(4096, guesses);
    }

    private void write(QueuePair qp, int psn, long va, int rkey, byte[] payload) throws Exception {
        peer.send(Opcode.UC_RDMA_WRITE_ONLY, qp.qpNum(), psn, payload,
            p -> p.reth().virtualAddress(va).rKey(rkey).dmaLength(payload.length));
    }

    /**
     * Writes {@code n} with the real rkey into the region's last 16 bytes and waits until it is
     * there: the victim has then handled every datagram sent before it (one socket, in order).
     */
    private int writeMarker(QueuePair qp, int psn, MemoryRegion region, int n) throws Exception {
        byte[] mark = ByteBuffer.allocate(GUESS_BYTES).putInt(0, n).array();
        write(qp, psn, region.address() + LENGTH - GUESS_BYTES, region.rkey(), mark);
        long deadline = System.nanoTime() + 30_000_000_000L; // a guard against a hang only
        while (region.buffer().getInt(LENGTH - GUESS_BYTES) != n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("marker " + n + " never arrived; counters " + victim.describeCounters());
            }
            Thread.onSpinWait();
        }
        return psn + 1;
    }
}
