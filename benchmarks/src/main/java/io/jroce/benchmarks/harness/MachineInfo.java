package io.jroce.benchmarks.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** One line naming the machine a run was on: CPU model, cores, kernel, JVM. */
final class MachineInfo {
    private MachineInfo() {
    }

    static String describe() {
        return cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, Linux "
            + System.getProperty("os.version") + ", " + System.getProperty("java.vm.name") + " "
            + System.getProperty("java.runtime.version");
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return System.getProperty("os.arch");
    }
}
