package io.jroce.benchmarks.harness;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Peaks of memory that stays: the heap in use right after a collection (summed over the heap
 * pools' collection usage, so garbage waiting for the next GC does not count; 0 when no GC ran)
 * and direct buffers (on JDK 17 without --add-opens, Netty's pooled arenas are direct ByteBuffers
 * too, so they count here). Sampled every 100 ms by {@link AllocationSampler}'s thread; RSS is the
 * harness's main measure of memory per QP, these say where it went.
 */
final class MemorySampler {
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()).toList();
    private final List<BufferPoolMXBean> buffers = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
    private long heapLivePeak;
    private long directPeak;

    synchronized void sample() {
        long live = 0;
        for (MemoryPoolMXBean p : heapPools) {
            MemoryUsage u = p.getCollectionUsage();
            if (u != null) {
                live += u.getUsed();
            }
        }
        heapLivePeak = Math.max(heapLivePeak, live);
        long direct = 0;
        for (BufferPoolMXBean b : buffers) {
            direct += Math.max(0, b.getMemoryUsed()); // "direct" and "mapped"
        }
        directPeak = Math.max(directPeak, direct);
    }

    synchronized long heapLivePeak() {
        return heapLivePeak;
    }

    synchronized long directPeak() {
        return directPeak;
    }
}
