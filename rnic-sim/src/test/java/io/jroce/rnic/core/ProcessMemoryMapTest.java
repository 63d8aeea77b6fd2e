package io.jroce.rnic.core;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.BufferUtil;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory-map check of registration, on real mappings of this process. */
class ProcessMemoryMapTest {
    private static final int LENGTH = 3 * 4096;

    @BeforeAll
    static void linux() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs /proc/self/maps (Linux)");
    }

    @Test
    void anonymousDirectMemoryIsFineForWriting() {
        ByteBuffer b = ByteBuffer.allocateDirect(LENGTH);
        assertNull(ProcessMemoryMap.problem(BufferUtil.address(b), LENGTH, true));
    }

    @Test
    void aReadOnlyMappingIsRefusedForWritingOnly(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("ro.bin");
        Files.write(file, new byte[LENGTH]);
        MappedByteBuffer mapped;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, LENGTH);
        }
        long address = BufferUtil.address(mapped);
        String problem = ProcessMemoryMap.problem(address, LENGTH, true);
        assertNotNull(problem);
        assertTrue(problem.contains("read-only"), problem);
        assertNull(ProcessMemoryMap.problem(address, LENGTH, false));
    }

    @Test
    void pagesPastTheEndOfTheMappedFileAreRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("short.bin");
        Files.write(file, new byte[LENGTH]);
        MappedByteBuffer mapped;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH);
        }
        long address = BufferUtil.address(mapped);
        assertNull(ProcessMemoryMap.problem(address, LENGTH, true));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(4096 + 100); // two pages: the second partly backed, the third not at all
        }
        assertNull(ProcessMemoryMap.problem(address, 2 * 4096, true), "a partly backed last page is readable");
        String problem = ProcessMemoryMap.problem(address, LENGTH, true);
        assertNotNull(problem);
        assertTrue(problem.contains("shorter than the mapping"), problem);
    }

    @Test
    void anUnmappedRangeIsRefused() {
        // The first page of the address space is never mapped.
        String problem = ProcessMemoryMap.problem(4096, 4096, false);
        assertNotNull(problem);
        assertTrue(problem.contains("not mapped"), problem);
    }
}
