package io.jroce.rnic.cm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.jroce.rnic.ProgressMode;
import io.jroce.rnic.SoftRnic;
import io.jroce.verbs.InvalidStateException;
import io.jroce.verbs.RdmaDevice;

/**
 * An RDMA CM call made on the device's I/O thread (from an async-event listener, which runs there;
 * in the invoker mode, on whichever application thread owns the device) runs at once instead of
 * waiting for a turn of the thread it blocks. The deadline only bounds a failure.
 */
class CmIoThreadTest {
    private static final long DEADLINE_S = 30;

    private static int freePort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest
    @EnumSource(ProgressMode.class)
    void aCallFromTheIoThreadRunsAtOnce(ProgressMode mode) throws Exception {
        RdmaDevice device = SoftRnic.builder().name("cmio-" + mode).address("127.0.0.3").udpPort(freePort())
            .progressMode(mode).open();
        try {
            CmDevice dev = CmDevices.owning(InetAddress.getByName("127.0.0.3"));
            CompletableFuture<Object> result = new CompletableFuture<>();
            Thread caller = new Thread(() -> dev.device.gsi().execute(() -> {
                try {
                    CmIoThread.run(dev, () -> result.complete("ran"));
                    CmIoThread.run(dev, () -> {
                        throw new IllegalStateException("misuse");
                    });
                } catch (RuntimeException e) {
                    result.complete(e); // "ran" came first: this is only seen if the first never ran
                }
            }), "caller");
            caller.setDaemon(true);
            caller.start();
            assertEquals("ran", result.get(DEADLINE_S, TimeUnit.SECONDS));
            CompletableFuture<Throwable> typed = new CompletableFuture<>();
            dev.device.gsi().execute(() -> {
                try {
                    CmIoThread.run(dev, () -> {
                        throw new IllegalStateException("misuse");
                    });
                    typed.complete(null);
                } catch (RuntimeException e) {
                    typed.complete(e);
                }
            });
            assertInstanceOf(InvalidStateException.class, typed.get(DEADLINE_S, TimeUnit.SECONDS),
                "the manager's misuse exception, typed as off the I/O thread");
        } finally {
            Thread closer = new Thread(device::close, "closer");
            closer.setDaemon(true);
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            assertFalse(closer.isAlive(), "the device's I/O thread is stuck");
        }
    }
}
