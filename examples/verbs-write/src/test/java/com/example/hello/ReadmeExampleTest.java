package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The README's example runs and prints the greeting that landed in the other device's memory. */
class ReadmeExampleTest {
    @Test
    void theGreetingLands() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            ReadmeExample.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        assertEquals("hello, RDMA" + System.lineSeparator(), printed.toString(StandardCharsets.UTF_8));
    }
}
