package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.MemoryWindow;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ResourceBusyException;

/**
 * Two application threads closing one region or window at once release it once: each close used to
 * check "not closed yet", then wait for the I/O thread to release the key, so both passed the
 * check and both gave back the region's use of its protection domain, which could then be
 * deallocated under a live region. The I/O thread is held so that the two closes overlap for sure.
 */
class ConcurrentCloseTest {

    @Test
    void twoThreadsClosingOneRegionGiveBackOneUseOfItsPd() throws InterruptedException {
        SoftDevice device = (SoftDevice) SoftRnic.builder().name("jrocecc1").address("127.0.0.1").udpPort(0).open();
        try {
            ProtectionDomain pd = device.allocPd();
            MemoryRegion mr = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
            MemoryRegion other = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
            closeTwiceAtOnce(device, mr::close);
            assertThrows(ResourceBusyException.class, pd::close, "the other region still uses the PD");
            other.close();
            pd.close();
        } finally {
            device.close();
        }
    }

    @Test
    void twoThreadsClosingOneWindowGiveBackOneUseOfItsPd() throws InterruptedException {
        SoftDevice device = (SoftDevice) SoftRnic.builder().name("jrocecc2").address("127.0.0.1").udpPort(0).open();
        try {
            ProtectionDomain pd = device.allocPd();
            MemoryWindow mw = pd.allocMemoryWindow(2);
            MemoryRegion other = pd.allocateMemory(4096, AccessFlags.LOCAL_WRITE);
            closeTwiceAtOnce(device, mw::close);
            assertThrows(ResourceBusyException.class, pd::close, "the region still uses the PD");
            other.close();
            pd.close();
        } finally {
            device.close();
        }
    }

    /** Runs {@code close} on two threads while the I/O thread is held, until both wait, then lets it go. */
    private static void closeTwiceAtOnce(SoftDevice device, Runnable close) throws InterruptedException {
        CountDownLatch hold = new CountDownLatch(1);
        device.io().execute(() -> {
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread first = new Thread(close, "close-1");
        first.start();
        awaitWaiting(first); // inside the close, waiting for the held I/O thread
        Thread second = new Thread(close, "close-2");
        second.start();
        awaitWaiting(second);
        hold.countDown();
        first.join();
        second.join();
    }

    private static void awaitWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.BLOCKED) {
            Thread.sleep(1);
        }
    }
}
