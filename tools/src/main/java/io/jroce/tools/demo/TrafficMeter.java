package io.jroce.tools.demo;

/**
 * Measures the packets both RNICs sent and received between {@link #mark()} and {@link #settle()}.
 * Counters move on the RNICs' own threads, so a packet can still be on its way when the last
 * completion arrives: {@link #settle()} waits, briefly, until what one side sent the other received.
 */
final class TrafficMeter {
    /** What each RNIC sent and received during one step. */
    record Delta(DeviceCounters requester, DeviceCounters responder) {
    }

    private static final long SETTLE_NS = 200_000_000L;
    private final Endpoint requester;
    private final Endpoint responder;
    private DeviceCounters requesterBase;
    private DeviceCounters responderBase;

    TrafficMeter(Endpoint requester, Endpoint responder) {
        this.requester = requester;
        this.responder = responder;
        mark();
    }

    void mark() {
        requesterBase = DeviceCounters.read(requester.device());
        responderBase = DeviceCounters.read(responder.device());
    }

    /** The counters' deltas since {@link #mark()}. */
    Delta settle() throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_NS;
        while (true) {
            DeviceCounters req = DeviceCounters.read(requester.device()).minus(requesterBase);
            DeviceCounters resp = DeviceCounters.read(responder.device()).minus(responderBase);
            boolean balanced = req.sentPkts() == resp.rcvdPkts() && resp.sentPkts() == req.rcvdPkts();
            if (balanced || System.nanoTime() - deadline > 0) {
                return new Delta(req, resp);
            }
            Thread.sleep(1);
        }
    }
}
