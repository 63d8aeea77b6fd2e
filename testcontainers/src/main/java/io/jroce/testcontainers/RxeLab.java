package io.jroce.testcontainers;

import com.github.dockerjava.api.exception.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the interop lab needs on this machine, and the name of the rxe peer image.
 *
 * <p>The image is built by {@code interop/rxe-image/build.sh}; its tag is a hash of the files in
 * that directory, computed here the same way, so a test always asks for the image that matches
 * the checked-out build files. When it is missing, the first check builds it (Debian hosts; see
 * {@link #AUTO_BUILD_ENV}).
 */
public final class RxeLab {
    /** Repository part of the image name. */
    public static final String IMAGE_REPOSITORY = "jroce/rxe-peer";
    /** System property (set by the tests' Surefire configuration) naming the image's build directory. */
    public static final String IMAGE_DIR_PROPERTY = "jroce.rxe.imageDir";
    /** Environment variable that names an image to use instead of the computed one. */
    public static final String IMAGE_ENV = "JROCE_RXE_IMAGE";
    /** Environment variable: {@code false} keeps a missing image from being built on first use. */
    public static final String AUTO_BUILD_ENV = "JROCE_RXE_AUTO_BUILD";

    private static final Logger LOG = LoggerFactory.getLogger(RxeLab.class);

    private static final String BUILD_HINT = "run interop/rxe-image/build.sh (see docs/interop-lab.md)";
    private static Optional<String> missing;

    private RxeLab() {
    }

    /** {@return whether the environment variable {@code CI} is {@code true}: then nothing may be skipped} */
    public static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * What keeps rxe peers from running here, in one line, or empty when they can run. Checked once
     * per JVM: the build directory, Ryuk disabled, {@code /dev/net/tun}, a Docker engine, the image
     * (built here if it is missing and the host can).
     *
     * @return what is missing, or empty when nothing is
     */
    public static synchronized Optional<String> missingPrerequisite() {
        if (missing == null) {
            missing = Optional.ofNullable(check());
        }
        return missing;
    }

    private static String check() {
        String image;
        try {
            image = imageName();
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            return "TESTCONTAINERS_RYUK_DISABLED=true is not set (Ryuk's image cannot be pulled here;"
                + " Maven's Surefire sets it for this module)";
        }
        if (Files.exists(Path.of("/.dockerenv")) && System.getenv("TESTCONTAINERS_HOST_OVERRIDE") == null) {
            return "TESTCONTAINERS_HOST_OVERRIDE is not set (in a container, Testcontainers would pull an"
                + " image to find the Docker host; Maven's Surefire sets it to localhost for this module)";
        }
        if (!Files.exists(Path.of("/dev/net/tun"))) {
            return "no /dev/net/tun on this host (the rxe peer container needs it for its QEMU guest)";
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return "no Docker engine answers (install docker.io and start dockerd: see docs/interop-lab.md)";
        }
        return ensureImage(image).orElse(null);
    }

    /**
     * Makes sure {@code image} exists, building it on first use when it is the checkout's
     * ({@link #imageName()}); what went wrong, in one line, or empty. Needs a Docker engine.
     */
    static synchronized Optional<String> ensureImage(String image) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
            return Optional.empty();
        } catch (NotFoundException e) {
            return Optional.ofNullable(buildOnFirstUse(image));
        }
    }

    /**
     * The image is missing: build it with {@code build.sh} from its build directory (the Debian
     * route: root, apt-get, dpkg-deb, a C compiler; about 30 s with a warm package cache), unless
     * {@value #AUTO_BUILD_ENV}{@code =false}. Null when it then exists, else what went wrong.
     */
    private static String buildOnFirstUse(String image) {
        if ("false".equalsIgnoreCase(System.getenv(AUTO_BUILD_ENV)) || System.getenv(IMAGE_ENV) != null) {
            return "Docker image " + image + " is not built: " + BUILD_HINT;
        }
        Path script;
        try {
            Path dir = imageDirectory();
            if (!image.equals(IMAGE_REPOSITORY + ":" + imageTag(dir))) {
                return "Docker image " + image + " does not exist (it is not the image " + dir + " builds)";
            }
            script = dir.resolve("build.sh");
        } catch (IllegalStateException e) {
            return "Docker image " + image + " is not built, and its build files are not found: " + e.getMessage();
        }
        LOG.info("Docker image {} is not built: building it now with {} (once per machine; its log: {})",
            image, script, "target/rxe-image-build.log");
        try {
            Path log = Path.of("target", "rxe-image-build.log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
            if (!p.waitFor(20, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return "Docker image " + image + " is not built: " + script + " did not finish within 20 minutes (" + log + ")";
            }
            List<String> lines = Files.readAllLines(log);
            String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
            if (p.exitValue() != 0 || !last.equals(image)) {
                String reason = lines.stream().filter(l -> l.startsWith("rxe-image: ")).reduce((a, b) -> b).orElse(last);
                return "Docker image " + image + " is not built, and building it here failed (" + reason
                    + "; the whole log: " + log + "): " + BUILD_HINT;
            }
            LOG.info("built {}", image);
            return null;
        } catch (IOException e) {
            return "Docker image " + image + " is not built, and " + script + " could not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Docker image " + image + " is not built: interrupted while building it";
        }
    }

    /** {@return the image to run: {@value #IMAGE_ENV} if set, else {@code jroce/rxe-peer:<hash of the build files>}} */
    public static String imageName() {
        String override = System.getenv(IMAGE_ENV);
        if (override != null && !override.isBlank()) {
            return override.trim();
        }
        return IMAGE_REPOSITORY + ":" + imageTag(imageDirectory());
    }

    /**
     * The tag {@code build.sh} gives the image built from {@code dir}: SHA-256 over the lines
     * {@code "<sha256 hex>  <path>\n"} (sha256sum's format) of every file in the directory and
     * below except Markdown, the path relative to {@code dir} with '/' ({@code peer/x.c}), sorted,
     * cut to 12 hex digits.
     */
    static String imageTag(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            List<String> inputs = files.filter(Files::isRegularFile)
                .filter(f -> !f.getFileName().toString().endsWith(".md"))
                .map(f -> dir.relativize(f).toString().replace(java.io.File.separatorChar, '/'))
                // sort(1) under LC_ALL=C orders bytes: for ASCII names that is String order
                .sorted()
                .toList();
            StringBuilder listing = new StringBuilder();
            for (String f : inputs) {
                listing.append(sha256Hex(Files.readAllBytes(dir.resolve(f)))).append("  ")
                    .append(f).append('\n');
            }
            return sha256Hex(listing.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 12);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir, e);
        }
    }

    /** The image's build directory: {@value #IMAGE_DIR_PROPERTY}, else {@code interop/rxe-image} above the working directory. */
    static Path imageDirectory() {
        String configured = System.getProperty(IMAGE_DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path dir = Path.of(configured).toAbsolutePath().normalize();
            if (Files.isRegularFile(dir.resolve("build.sh"))) {
                return dir;
            }
            throw new IllegalStateException("no build.sh in " + dir + " (" + IMAGE_DIR_PROPERTY + ")");
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path dir = p.resolve("interop").resolve("rxe-image");
            if (Files.isRegularFile(dir.resolve("build.sh"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find interop/rxe-image/build.sh above "
            + Path.of("").toAbsolutePath() + " (set -D" + IMAGE_DIR_PROPERTY + ")");
    }

    private static String sha256Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
