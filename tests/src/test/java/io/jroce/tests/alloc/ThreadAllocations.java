package io.jroce.tests.alloc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bytes every live thread of this JVM allocated on the Java heap between two calls, {@link
 * #first} and {@link #second}, both made on one thread (the measuring one): {@code
 * com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, exact to the byte (it counts the
 * thread's current TLAB too). What the measuring thread allocates to take the figures (thread id
 * and counter arrays) is left out: its own counter is read last at {@link #first} and first at
 * {@link #second}. A thread that both started and ended between the calls would be missed, so
 * {@link Span#threadsStarted} says how many started: 0 means every thread was seen. The JVM's
 * compiler and GC threads are not Java threads the bean reports; they allocate nothing on the
 * heap.
 */
final class ThreadAllocations {
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long[] firstIds;
    private long[] firstBytes;
    private long firstStarted;
    private long firstSelf;
    private long self;

    ThreadAllocations() {
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
    }

    /** The first point: every live thread's counter. */
    void first() {
        self = Thread.currentThread().getId();
        firstIds = threads.getAllThreadIds();
        firstBytes = threads.getThreadAllocatedBytes(firstIds);
        firstStarted = threads.getTotalStartedThreadCount();
        firstSelf = threads.getCurrentThreadAllocatedBytes(); // last: what the lines above allocated is before it
    }

    /** The second point, on the thread that took the first: what each thread allocated since. */
    Span second() {
        long selfNow = threads.getCurrentThreadAllocatedBytes(); // first: before this call allocates
        long started = threads.getTotalStartedThreadCount() - firstStarted;
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<Long, Long> before = new LinkedHashMap<>();
        for (int i = 0; i < firstIds.length; i++) {
            before.put(firstIds[i], firstBytes[i]);
        }
        Map<String, Long> byThread = new LinkedHashMap<>();
        long total = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] < 0 || infos[i] == null) {
                continue; // ended meanwhile
            }
            long delta = ids[i] == self ? selfNow - firstSelf : bytes[i] - before.getOrDefault(ids[i], 0L);
            byThread.put(infos[i].getThreadName() + "#" + ids[i], delta);
            total += delta;
        }
        return new Span(total, started, byThread);
    }

    /**
     * @param bytes          allocated by every thread between the two points
     * @param threadsStarted threads started between them
     * @param byThread       bytes per thread, by name and id, in the bean's order
     */
    record Span(long bytes, long threadsStarted, Map<String, Long> byThread) {
    }
}
