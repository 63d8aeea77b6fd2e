package io.jroce.rnic.events;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jroce.stack.wire.AethSyndrome;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;
import io.jroce.verbs.QpState;
import io.jroce.verbs.WrOpcode;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * With the log on, a record allocates nothing beyond the log's output buffer (docs/event-log.md):
 * Jackson's generator writes into its own buffer, names are constants and addresses come from a
 * cache. Measured on this thread over a few hundred thousand records after a warm-up, so what the
 * JVM allocates once (a C2 compile request resolving string constants, a few KB) stays under the
 * bound of one byte per record, which any per-record object would exceed many times over.
 */
class EventLogAllocationTest {
    private static final int ROUNDS = 50_000;
    private static final int RECORDS_PER_ROUND = 10;

    @Test
    void aRecordAllocatesNothing() {
        UnsafeBuffer ack = new UnsafeBuffer(new byte[256]);
        RocePacket packet = new RocePacket();
        int ackLength = packet.build(ack, 0, Opcode.RC_ACKNOWLEDGE, 0);
        packet.bth().destQp(0x11).psn(257).partitionKey(0xFFFF);
        packet.aeth().syndrome(AethSyndrome.NO_CREDIT_COUNT).msn(1);
        UnsafeBuffer write = new UnsafeBuffer(new byte[256]);
        int writeLength = packet.build(write, 0, Opcode.RC_RDMA_WRITE_ONLY, 64);
        packet.bth().destQp(0x12).psn(256).ackRequest(true).partitionKey(0xFFFF);
        packet.reth().virtualAddress(0x1000).rKey(0x42).dmaLength(64);
        byte[] a = new byte[16];
        byte[] b = new byte[16];
        a[15] = 1;
        b[15] = 2;
        long[] now = {0};
        EventLog log = new EventLog(OutputStream.nullOutputStream(), () -> now[0]++, "jroce0", List.of(), true);
        Runnable round = () -> {
            log.sendPosted(0x11, 7, WrOpcode.RDMA_WRITE, 64, true);
            log.packetSent(write, 0, writeLength, a, b, 4791);
            log.timerSet(0x11, "ack", 67_108_864);
            log.packetReceived(ack, 0, ackLength, b, 4791, a, 0);
            log.psnState(0x11, "requester", "next_psn", 258, "oldest_unacked_psn", 258);
            log.nak(true, 0x11, 257, 0x60);
            log.retry(0x11, 257, RetransmitCause.NAK_SEQUENCE_ERROR, 6);
            log.timerExpired(0x11, "ack", 6);
            log.qpStateChanged(0x11, QpState.RTS, QpState.RTS);
            log.rnrWait(0x11, 257, 10_000);
        };
        for (int i = 0; i < ROUNDS * 4; i++) {
            round.run();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < ROUNDS; i++) {
            round.run();
        }
        long bytes = threads.getThreadAllocatedBytes(thread) - before;
        log.close();
        long records = (long) ROUNDS * RECORDS_PER_ROUND;
        assertTrue(bytes < records, bytes + " bytes allocated for " + records + " records");
    }
}
