package io.jroce.rnic.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the process's own memory map (Linux {@code /proc/self/maps}) says of a range about to be
 * registered: whether every page of it is mapped, readable, writable when the registration lets
 * the RNIC write, and backed by its file when it maps one. The kernel learns the same when
 * ib_reg_mr pins the pages (get_user_pages fails on a hole, on a read-only page asked for
 * writing, and on a page past the end of a file); jroce pins nothing, so it asks the map.
 * Touching the pages instead would fault, and the JVM reports such faults late and
 * asynchronously, or not at all (a write to a read-only page ends the process).
 *
 * <p>A file shortened after registration still faults on access: that is the owner's to avoid,
 * as with any mapped file in Java. Where {@code /proc/self/maps} cannot be read (not Linux), the
 * check is skipped.
 */
final class ProcessMemoryMap {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final Path MAP_FILES = Path.of("/proc/self/map_files");
    private static final long PAGE = 4096;

    private ProcessMemoryMap() {
    }

    /**
     * Why {@code [address, address + length)} cannot be registered, or null when it can (or when
     * the map cannot be read).
     *
     * @param write the registration lets the RNIC write the memory
     */
    static String problem(long address, long length, boolean write) {
        long end = address + length;
        long cursor = address;
        try (BufferedReader maps = Files.newBufferedReader(MAPS)) {
            String line;
            while ((line = maps.readLine()) != null && cursor < end) {
                Vma vma = Vma.parse(line);
                if (vma == null || Long.compareUnsigned(vma.end, cursor) <= 0) {
                    continue;
                }
                if (Long.compareUnsigned(vma.start, cursor) > 0) {
                    return "0x" + Long.toHexString(cursor) + " is not mapped";
                }
                if (vma.perms.charAt(0) != 'r') {
                    return "0x" + Long.toHexString(cursor) + " is mapped without read access (" + vma.perms + ")";
                }
                if (write && vma.perms.charAt(1) != 'w') {
                    return "0x" + Long.toHexString(cursor) + " is mapped read-only (" + vma.perms + "), and the "
                        + "registration lets the RNIC write it";
                }
                long coveredEnd = Long.compareUnsigned(vma.end, end) < 0 ? vma.end : end;
                String shortfall = vma.fileShortfall(coveredEnd);
                if (shortfall != null) {
                    return shortfall;
                }
                cursor = vma.end;
            }
        } catch (IOException | RuntimeException e) {
            return null; // no readable map here: nothing to compare with
        }
        return Long.compareUnsigned(cursor, end) >= 0 ? null : "0x" + Long.toHexString(cursor) + " is not mapped";
    }

    /** One line of the map: {@code start-end perms offset dev inode path}. */
    private record Vma(long start, long end, String perms, long offset, long inode, String range, String path) {
        static Vma parse(String line) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length < 5) {
                return null;
            }
            int dash = f[0].indexOf('-');
            return new Vma(Long.parseUnsignedLong(f[0], 0, dash, 16), Long.parseUnsignedLong(f[0], dash + 1, f[0].length(), 16),
                f[1], Long.parseUnsignedLong(f[2], 16), Long.parseLong(f[4]), f[0], f.length == 6 ? f[5] : "");
        }

        /** For a file mapping: why the file does not reach {@code coveredEnd}, or null. */
        String fileShortfall(long coveredEnd) {
            if (inode == 0 || !path.startsWith("/")) {
                return null; // anonymous memory, or a special mapping
            }
            long size = fileSize();
            if (size < 0) {
                return null;
            }
            long needed = offset + (coveredEnd - start);
            long backed = (size + PAGE - 1) & -PAGE; // the last partial page reads as zeros
            if (backed < needed) {
                return "the mapping of " + path + " reaches byte " + needed + " of the file, which has " + size
                    + " bytes: the pages past its end cannot be accessed (the file is shorter than the mapping)";
            }
            return null;
        }

        private long fileSize() {
            try {
                return Files.size(MAP_FILES.resolve(range)); // the mapped file itself, even if renamed
            } catch (IOException | RuntimeException e) {
                try {
                    return Files.size(Path.of(path));
                } catch (IOException | RuntimeException e2) {
                    return -1;
                }
            }
        }
    }
}
