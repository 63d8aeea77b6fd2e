package io.jroce.stack.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The warm-up's datagrams make the round through the kernel's loopback and back, in both transports. */
class LoopbackWarmUpTest {
    @Test
    void everyDatagramComesBackThroughTheEventLoopTransport() throws Exception {
        assertEquals(LoopbackWarmUp.datagrams(), LoopbackWarmUp.eventLoop());
        assertEquals(LoopbackWarmUp.datagrams(), LoopbackWarmUp.eventLoop(), "a second run: the first closed its socket");
    }

    @Test
    void everyDatagramComesBackThroughTheDirectTransport() {
        assertEquals(LoopbackWarmUp.datagrams(), LoopbackWarmUp.direct());
        assertEquals(LoopbackWarmUp.datagrams(), LoopbackWarmUp.direct(), "a second run: the first closed its socket");
    }
}
