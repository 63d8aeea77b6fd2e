package com.example.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The program moves what it says: the SEND, the RDMA WRITE and the RDMA READ, byte for byte. */
class CmEndpointExampleTest {
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
