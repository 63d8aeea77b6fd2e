package io.jroce.tools.cmcommon;

import static io.jroce.tools.cmcommon.TwinAddresses.CLIENT;
import static io.jroce.tools.cmcommon.TwinAddresses.PROBE;

import io.jroce.testsupport.StartupGuard;

/**
 * Tells when a twin's server listens, without taking one of its connections (which a client run
 * again while refused could, when the listener comes up between a ucmatose client's REQs).
 */
public final class ListenProbe {
    private ListenProbe() {
    }

    /**
     * Waits until a server whose device has {@link TwinAddresses#PROBE} as a second address listens
     * on {@code port} of {@code portSpace} (tcp or ib) on its first: after its {@code startLine}
     * (printed before the device opens: a REQ sent before that is lost, and sent again 6 s later),
     * ucmatose probes with a REQ to the device's other address, refused with REJ 8 while nobody
     * listens on the port and with REJ 28 once a listener bound to the first address has it (the REQ
     * asks for an address the listener is not bound to, as the kernel's cma_match_private_data
     * refuses it).
     */
    public static void awaitListening(TwinSide server, String startLine, String udp, String port, String portSpace)
        throws Exception {
        server.awaitOutLine(startLine);
        for (StartupGuard guard = StartupGuard.start(); guard.waiting(); ) {
            try (TwinSide probe = TwinSide.start("ucmatose", "-s", PROBE, "-b", CLIENT, "-S", "0", "-p", port, "-P",
                portSpace, "--udp-port", udp)) {
                probe.await();
                if (probe.out().contains("RDMA_CM_EVENT_REJECTED, error: 28")) {
                    return;
                }
                if (!probe.out().contains("RDMA_CM_EVENT_REJECTED, error: 8")) {
                    throw new AssertionError("the probe was not refused: " + probe.transcript());
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the server never listened: " + server.transcript());
    }
}
