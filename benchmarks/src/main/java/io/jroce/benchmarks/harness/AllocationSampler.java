package io.jroce.benchmarks.harness;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * Bytes allocated on the Java heap by every thread of the process, dead ones included.
 * {@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes} counts only live threads, so
 * a daemon thread samples every live thread's counter every {@link #PERIOD_MS} ms and keeps the
 * last value seen per thread id: a thread that ends still counts with its last sample. What a
 * thread allocated after its last sample, or in a life shorter than one period, is missed;
 * jroce's threads (main, the I/O event loop, the handshake) live for the whole run, and the final
 * {@link #sample()} at exit is exact for every thread still alive.
 *
 * <p>Allocation outside the Java heap (direct buffers, Netty's pooled arenas) is not allocation
 * here: it is memory, reported by {@link ProcessStats} as RSS and direct-buffer peaks.
 */
final class AllocationSampler {
    static final long PERIOD_MS = 20;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> lastSeen = new HashMap<>();
    private long liveAtLastSample;
    private volatile long samplerId = -1;

    AllocationSampler() {
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
    }

    /**
     * Starts the sampling thread, which also runs {@code alongside} every fifth period. Its own
     * allocation (the samples) is left out of the totals.
     */
    void start(Runnable alongside) {
        Thread t = new Thread(() -> {
            for (long n = 0; ; n++) {
                sample();
                if (n % 5 == 0) {
                    alongside.run();
                }
                try {
                    Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "jroce-alloc-sampler");
        t.setDaemon(true);
        samplerId = t.getId();
        t.start();
    }

    /** Reads every live thread's counter now. */
    synchronized void sample() {
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long live = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0 && ids[i] != samplerId) {
                lastSeen.put(ids[i], bytes[i]);
                live += bytes[i];
            }
        }
        liveAtLastSample = live;
    }

    /** Every thread ever sampled, each at its last sample. */
    synchronized long totalBytes() {
        long sum = 0;
        for (long b : lastSeen.values()) {
            sum += b;
        }
        return sum;
    }

    /** The threads alive at the last sample only. */
    synchronized long liveThreadBytes() {
        return liveAtLastSample;
    }

    synchronized int threadsSeen() {
        return lastSeen.size();
    }
}
