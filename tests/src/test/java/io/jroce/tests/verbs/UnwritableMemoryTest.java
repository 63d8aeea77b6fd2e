package io.jroce.tests.verbs;

import io.jroce.tests.support.Completions;
import io.jroce.tests.support.RcConnection;
import io.jroce.tests.support.RcPair;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.MemoryRegion;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.ProtectionDomain;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WcStatus;
import io.jroce.verbs.WorkCompletion;
import io.jroce.verbs.WrOpcode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory the RNIC would write must be writable, and memory it is given must exist: a read-only
 * mapping registered for REMOTE_WRITE once let a 16-byte RDMA WRITE end the JVM with SIGSEGV in
 * the responder's copy. The registration is refused now, as the kernel refuses it; read-only
 * memory registered for REMOTE_READ only still serves READs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnwritableMemoryTest {
    private static final int LENGTH = 8192;

    private RcPair pair;

    @BeforeAll
    void open() {
        pair = RcPair.open("127.0.0.1", Mtu.MTU_1024);
    }

    @AfterAll
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    private static MappedByteBuffer readOnlyMapping(Path file, int length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, length);
        }
    }

    private static Path fileOf(Path dir, byte[] content) throws IOException {
        Path file = dir.resolve("region.bin");
        Files.write(file, content);
        return file;
    }

    @Test
    void readOnlyMappingIsRefusedForEveryAccessThatWrites(@TempDir Path dir) throws IOException {
        MappedByteBuffer mapped = readOnlyMapping(fileOf(dir, new byte[LENGTH]), LENGTH);
        ProtectionDomain pd = pair.a().pd();
        int[] writing = {
            AccessFlags.LOCAL_WRITE,
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE,
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC,
            AccessFlags.MW_BIND,
        };
        for (int access : writing) {
            InvalidAttributeException e = assertThrows(InvalidAttributeException.class,
                () -> pd.registerMemory(mapped, access), AccessFlags.describe(access));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        }
    }

    @Test
    void readOnlyViewOfWritableMemoryIsRefusedForWriting() {
        ByteBuffer view = ByteBuffer.allocateDirect(LENGTH).asReadOnlyBuffer();
        assertThrows(InvalidAttributeException.class,
            () -> pair.a().pd().registerMemory(view, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));
    }

    @Test
    void truncatedMappingIsRefused(@TempDir Path dir) throws IOException {
        Path file = fileOf(dir, new byte[3 * LENGTH]);
        MappedByteBuffer mapped;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, 3 * LENGTH);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(LENGTH); // the mapping now claims two pages of file that do not exist
        }
        InvalidAttributeException e = assertThrows(InvalidAttributeException.class,
            () -> pair.a().pd().registerMemory(mapped, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));
        assertTrue(e.getMessage().contains("shorter than the mapping"), e.getMessage());
    }

    @Test
    void readOnlyMappingServesRemoteReads(@TempDir Path dir) throws IOException {
        byte[] content = new byte[LENGTH];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        MappedByteBuffer mapped = readOnlyMapping(fileOf(dir, content), LENGTH);
        MemoryRegion source = pair.b().pd().registerMemory(mapped, AccessFlags.REMOTE_READ);
        MemoryRegion sink = pair.a().pd().allocateMemory(LENGTH, AccessFlags.LOCAL_WRITE);
        try (RcConnection c = pair.connect(new RcConnection.Options())) {
            c.qpA.postSend(new SendWorkRequest().wrId(7).opcode(WrOpcode.RDMA_READ).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(sink, 0, LENGTH))
                .remoteAddress(source.address()).rkey(source.rkey()));
            WorkCompletion wc = Completions.await(c.sendCqA, "RDMA READ of a read-only mapping", c::diagnostics);
            assertEquals(WcStatus.SUCCESS, wc.status());
            byte[] got = new byte[LENGTH];
            sink.buffer().get(0, got);
            assertArrayEquals(content, got);
        } finally {
            source.close();
            sink.close();
        }
    }
}
