package io.jroce.rnic.events;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.wire.AethSyndrome;
import io.jroce.verbs.QpState;

/**
 * {@link ProtocolEvents} as SLF4J debug lines under {@code io.jroce.rnic.protocol}, each prefixed
 * with the device's name and the QP number in hex as rdma-core prints it. Drops are rate-limited:
 * at most one line per reason per second, which says how many more were dropped since the last
 * line, so that a flood of bad packets cannot flood the log. With debug off nothing is formatted
 * and nothing allocated.
 */
public final class LoggingProtocolEvents implements ProtocolEvents {
    /** The logger's name: enable it at debug level to see a device's protocol events. */
    public static final String LOGGER = "io.jroce.rnic.protocol";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
    private static final long DROP_LINE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final Counter[] COUNTERS = Counter.values();

    private final String device;
    /** Per drop reason: when its last line was written (0: never), and what was dropped since. */
    private final AtomicLongArray lastDropLineNs = new AtomicLongArray(COUNTERS.length);
    private final AtomicLongArray droppedSinceLine = new AtomicLongArray(COUNTERS.length);

    LoggingProtocolEvents(String device) {
        this.device = device;
    }

    @Override
    public void qpStateChanged(int qpn, QpState from, QpState to) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: QP 0x{} {} -> {}", device, Integer.toHexString(qpn), from, to);
        }
    }

    @Override
    public void nakSent(int qpn, int psn, int syndrome) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: QP 0x{} sent {} for PSN 0x{}", device, Integer.toHexString(qpn),
                AethSyndrome.describe(syndrome), Integer.toHexString(psn));
        }
    }

    @Override
    public void nakReceived(int qpn, int psn, int syndrome) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: QP 0x{} received {} for PSN 0x{}", device, Integer.toHexString(qpn),
                AethSyndrome.describe(syndrome), Integer.toHexString(psn));
        }
    }

    @Override
    public void retransmission(int qpn, int fromPsn, RetransmitCause cause, int retriesLeft) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: QP 0x{} retransmits from PSN 0x{} after {} ({})", device, Integer.toHexString(qpn),
                Integer.toHexString(fromPsn), cause.words(),
                retriesLeft < 0 ? "retries without end" : retriesLeft + " retries left");
        }
    }

    @Override
    public void rnrWait(int qpn, int psn, long delayNs) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{}: QP 0x{} waits {} us before sending PSN 0x{} again (RNR NAK)", device,
                Integer.toHexString(qpn), TimeUnit.NANOSECONDS.toMicros(delayNs), Integer.toHexString(psn));
        }
    }

    @Override
    public void dropped(Counter reason, long count) {
        if (!LOG.isDebugEnabled()) {
            return;
        }
        int i = reason.ordinal();
        long since = droppedSinceLine.addAndGet(i, count);
        long now = System.nanoTime();
        long last = lastDropLineNs.get(i);
        if (last != 0 && now - last < DROP_LINE_INTERVAL_NS || !lastDropLineNs.compareAndSet(i, last, now == 0 ? 1 : now)) {
            return; // written within the last second, or another thread writes it now
        }
        droppedSinceLine.addAndGet(i, -since);
        if (since == count) {
            LOG.debug("{}: dropped {} ({})", device, since == 1 ? "a packet" : since + " packets", reason.counterName());
        } else {
            LOG.debug("{}: dropped {} packets ({}) since the last line on it", device, since, reason.counterName());
        }
    }
}
