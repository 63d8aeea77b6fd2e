package io.jroce.testcontainers;

import com.github.dockerjava.api.DockerClient;
import org.testcontainers.DockerClientFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A C program of the user's, compiled on this host for an rxe guest: with the host's C compiler
 * ({@code $CC}, else {@code cc}) against the headers and libraries the image carries in
 * {@code /rxe/sysroot} (rdma-core's libibverbs and librdmacm, the versions the guest runs). The
 * host's C library must not be newer than the guest's (the image is built from the host's Debian
 * release, so on the host that built it, it is the same).
 *
 * <pre>{@code
 * Path binary = GuestProgram.compile(RxeLab.imageName(), Path.of("src/test/c/my_peer.c"), "-lrdmacm");
 * }</pre>
 * {@link RxeContainer#withGuestProgram} does this and puts the program on the guest's PATH.
 */
public final class GuestProgram {
    /** Where the image keeps the headers and libraries to compile against. */
    public static final String SYSROOT = "/rxe/sysroot";

    private GuestProgram() {
    }

    /**
     * Compiles {@code source} with {@code -O2 -Wall}, linked with libibverbs and then
     * {@code extraArgs} (e.g. {@code -lrdmacm}), into a directory of its own.
     *
     * @param image the rxe peer image whose libibverbs and librdmacm the program is built against
     * @param source the C source file
     * @param extraArgs more arguments for the compiler (libraries, definitions)
     * @return the executable, named as the source without {@code .c}
     * @throws IllegalStateException with the compiler's output when it fails
     */
    public static Path compile(String image, Path source, String... extraArgs) {
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(source, "source");
        if (!Files.isRegularFile(source)) {
            throw new IllegalArgumentException("no C source at " + source.toAbsolutePath());
        }
        Path sysroot = sysroot(image);
        String name = source.getFileName().toString().replaceFirst("\\.c$", "");
        try {
            Path out = Files.createTempDirectory("jroce-guest-program-").resolve(name);
            String lib = sysroot.resolve("usr/lib/x86_64-linux-gnu").toString();
            List<String> cmd = new ArrayList<>(List.of(compiler(), "-O2", "-Wall",
                "-I", sysroot.resolve("usr/include").toString(), "-o", out.toString(),
                source.toAbsolutePath().toString(), "-L", lib,
                "-Wl,-rpath-link=" + lib + ":" + sysroot.resolve("lib/x86_64-linux-gnu"), "-libverbs"));
            cmd.addAll(List.of(extraArgs));
            Run r = run(cmd, null);
            if (r.status != 0) {
                throw new IllegalStateException("cannot compile " + source + " for the rxe guest (" + String.join(" ", cmd)
                    + "), status " + r.status + ":\n" + r.output);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@value #SYSROOT} of {@code image}, copied out once per image into the temporary directory
     * (unpacked beside it and renamed into place, so that JVMs racing for it each see it whole).
     */
    static synchronized Path sysroot(String image) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "jroce-rxe-sysroot-" + image.replaceAll("[^A-Za-z0-9.-]", "_"));
        if (Files.isDirectory(dir.resolve("sysroot/usr/include/infiniband"))) {
            return dir.resolve("sysroot");
        }
        RxeLab.ensureImage(image).ifPresent(m -> {
            throw new IllegalStateException("cannot compile for the rxe guest: " + m);
        });
        DockerClient client = DockerClientFactory.instance().client();
        String id = client.createContainerCmd(image).exec().getId();
        try (InputStream tar = client.copyArchiveFromContainerCmd(id, SYSROOT).exec()) {
            Path staging = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".");
            Run r = run(List.of("tar", "-x", "-C", staging.toString()), tar);
            if (r.status != 0 || !Files.isDirectory(staging.resolve("sysroot/usr/include/infiniband"))) {
                throw new IllegalStateException("cannot unpack " + SYSROOT + " of " + image + " (an image built before"
                    + " guest programs were possible? rebuild it): " + r.output);
            }
            try {
                Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException raced) {
                // another JVM put it there first: use theirs (this copy stays behind in the temporary directory)
            }
            return dir.resolve("sysroot");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + SYSROOT + " out of " + image, e);
        } finally {
            client.removeContainerCmd(id).withForce(true).exec();
        }
    }

    private static String compiler() {
        String cc = System.getenv("CC");
        return cc == null || cc.isBlank() ? "cc" : cc.trim();
    }

    private record Run(int status, String output) {
    }

    /** Runs a host command, feeding it {@code input} if given; its output and errors as one text. */
    private static Run run(List<String> cmd, InputStream input) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd.get(0) + " on this host (" + e.getMessage() + ")", e);
        }
        try (OutputStream in = p.getOutputStream()) {
            if (input != null) {
                input.transferTo(in);
            }
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(cmd.get(0) + " did not end within 5 minutes");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + cmd.get(0), e);
        }
        return new Run(p.exitValue(), output);
    }
}
