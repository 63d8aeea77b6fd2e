package io.jroce.rnic.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.Opcode;
import io.jroce.stack.wire.RocePacket;

/**
 * Which drops name the arrival the device is handling: those of the packet itself, on the thread
 * that handles it, while it does; not a drop of what the device failed to send meanwhile, not one
 * counted on another thread, not one after the arrival was handled.
 */
class EventLogArrivalTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final EventLog log = new EventLog(out, () -> 0, "jroce0", List.of(), true);
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[64]);
    private final byte[] a = new byte[16];
    private final byte[] b = new byte[16];
    private int length;

    EventLogArrivalTest() {
        RocePacket packet = new RocePacket();
        length = packet.build(send, 0, Opcode.RC_SEND_ONLY, 8);
        packet.bth().destQp(0x42).psn(7).partitionKey(0xFFFF);
        a[10] = (byte) 0xFF;
        a[11] = (byte) 0xFF;
        a[12] = 10;
        a[15] = 1;
        System.arraycopy(a, 0, b, 0, 16);
        b[15] = 2;
    }

    /** The data of each packet_dropped record, as JSON text. */
    private List<String> drops() {
        log.flush();
        return Arrays.stream(out.toString(StandardCharsets.UTF_8).split("\u001e"))
            .filter(r -> r.contains("\"roce:packet_dropped\""))
            .map(r -> r.substring(r.indexOf("\"data\":") + 7, r.lastIndexOf('}')))
            .toList();
    }

    @Test
    void aDropOfThePacketNamesItsArrivalAndOnlyWhileItIsHandled() {
        log.packetReceived(send, 0, length, b, 4791, a, 0);
        log.dropped(Counter.DROP_WRONG_QP_STATE, 1);
        log.arrivalHandled();
        log.dropped(Counter.DROP_WRONG_QP_STATE, 1);
        assertEquals(List.of("{\"reason\":\"drop_wrong_qp_state\",\"count\":1,\"arrival\":1,\"src\":\"10.0.0.2\","
            + "\"opcode\":\"RC_SEND_ONLY\",\"dst_qpn\":66,\"psn\":7}", "{\"reason\":\"drop_wrong_qp_state\",\"count\":1}"),
            drops());
    }

    /** An answer that could not leave while the device handled an arrival is no drop of that arrival. */
    @Test
    void aSendSideDropNamesNoArrival() {
        log.packetReceived(send, 0, length, b, 4791, a, 0);
        log.dropped(Counter.DROP_TX_FAILED, 1);
        log.dropped(Counter.DROP_NO_ROUTE, 1);
        assertEquals(List.of("{\"reason\":\"drop_tx_failed\",\"count\":1}", "{\"reason\":\"drop_no_route\",\"count\":1}"),
            drops());
    }

    @Test
    void aDropCountedOnAnotherThreadNamesNoArrival() throws InterruptedException {
        log.packetReceived(send, 0, length, b, 4791, a, 0);
        Thread other = new Thread(() -> log.dropped(Counter.DROP_UNKNOWN_QPN, 1));
        other.start();
        other.join();
        assertEquals(List.of("{\"reason\":\"drop_unknown_qpn\",\"count\":1}"), drops());
    }

    /** A bad ICRC's arrival is named by the drop its transport counts next, and by no later one. */
    @Test
    void aBadIcrcArrivalEndsAtItsDrop() {
        log.badIcrcReceived(send, 0, length, b, 4791, a, 0);
        log.dropped(Counter.DROP_BAD_ICRC, 1);
        log.dropped(Counter.DROP_TRUNCATED, 1);
        List<String> drops = drops();
        assertEquals("{\"reason\":\"drop_bad_icrc\",\"count\":1,\"arrival\":1,\"src\":\"10.0.0.2\","
            + "\"opcode\":\"RC_SEND_ONLY\",\"dst_qpn\":66,\"psn\":7}", drops.get(0));
        assertEquals("{\"reason\":\"drop_truncated\",\"count\":1}", drops.get(1));
    }
}
