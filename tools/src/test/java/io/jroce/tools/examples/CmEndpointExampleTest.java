package io.jroce.tools.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/cm-guide.md quotes CmEndpointExample.java verbatim, and the program moves what it says. */
class CmEndpointExampleTest {
    private static final Path SOURCE = Path.of("src/main/java/io/jroce/tools/examples/CmEndpointExample.java");
    private static final Path GUIDE = Path.of("../docs/cm-guide.md");
    private static final String MARKER = "<!-- CmEndpointExample.java: kept identical by CmEndpointExampleTest -->";

    @Test
    void cmGuideShowsTheExampleVerbatim() throws IOException {
        String guide = Files.readString(GUIDE);
        int marker = guide.indexOf(MARKER);
        assertTrue(marker >= 0, "docs/cm-guide.md lacks the line " + MARKER);
        int start = guide.indexOf("```java\n", marker) + "```java\n".length();
        int end = guide.indexOf("```\n", start);
        assertEquals(Files.readString(SOURCE), guide.substring(start, end),
            "docs/cm-guide.md's example and CmEndpointExample.java differ: change both");
    }

    @Test
    void sendWriteAndReadMoveTheirBytes() throws Exception {
        // A free port rather than 4791: other programs on this host may hold that one.
        List<String> moved = CmEndpointExample.run(freePort());
        assertEquals(List.of(
            "SEND:       sent by SEND",
            "RDMA WRITE: written by RDMA WRITE",
            "RDMA READ:  read by RDMA READ"), moved);
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
