package io.jroce.tools;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What {@code jroce --version} prints: jroce's version, as Maven recorded it in the tools jar
 * ({@code META-INF/maven/io.jroce/jroce-tools/pom.properties}), and the Java runtime it runs on.
 */
final class Version {
    private static final String POM_PROPERTIES = "/META-INF/maven/io.jroce/jroce-tools/pom.properties";

    private Version() {
    }

    /** jroce's version, or a sentence saying it is unknown (run from classes, not from the jar). */
    static String jroce() {
        try (InputStream in = Version.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v;
                }
            }
        } catch (IOException e) {
            // unreadable: as absent
        }
        return "(version unknown: not run from the jroce-tools jar)";
    }

    /** The line {@code jroce --version} prints. */
    static String line() {
        return "jroce " + jroce() + " (Java " + Runtime.version() + ", " + System.getProperty("java.vm.name") + ")";
    }
}
