package io.jroce.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the devices come from, the file's format, and what a name that no device has gets. */
class DeviceRegistryTest {
    @TempDir
    Path dir;

    @Test
    void withNothingConfiguredThereIsJroce0OnTheDefaultAddress() throws Exception {
        DeviceRegistry r = DeviceRegistry.load(null, null, null, dir.toString());
        assertEquals(List.of(new DeviceDefinition("jroce0", List.of("127.0.0.1"), 4791)), r.devices());
        assertEquals("the default: no device file", r.source());
    }

    @Test
    void theConfigDirectoryFileIsReadWhenItExists() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Files.createDirectories(home.resolve(".config/jroce"));
        Files.writeString(home.resolve(".config/jroce/devices"), "home0 10.0.0.1\n");
        assertEquals("home0", DeviceRegistry.load(null, null, null, home.toString()).first().name());
        Path xdg = Files.createDirectories(dir.resolve("xdg/jroce"));
        Files.writeString(xdg.resolve("devices"), "xdg0 10.0.0.2\n");
        assertEquals("xdg0", DeviceRegistry.load(null, null, dir.resolve("xdg").toString(), home.toString()).first().name(),
            "XDG_CONFIG_HOME replaces ~/.config");
    }

    @Test
    void theEnvironmentVariableBeatsTheConfigDirectoryAndThePropertyBeatsBoth() throws Exception {
        Path xdg = Files.createDirectories(dir.resolve("xdg/jroce"));
        Files.writeString(xdg.resolve("devices"), "xdg0 10.0.0.2\n");
        Path env = Files.writeString(dir.resolve("env"), "env0 10.0.0.3\n");
        Path prop = Files.writeString(dir.resolve("prop"), "prop0 10.0.0.4\n");
        String x = dir.resolve("xdg").toString();
        DeviceRegistry fromEnv = DeviceRegistry.load(null, env.toString(), x, dir.toString());
        assertEquals("env0", fromEnv.first().name());
        assertEquals("JROCE_DEVICES=" + env, fromEnv.source());
        assertEquals("prop0", DeviceRegistry.load(prop.toString(), env.toString(), x, dir.toString()).first().name());
    }

    @Test
    void aFileTheVariableNamesMustExist() {
        UsageException e = assertThrows(UsageException.class,
            () -> DeviceRegistry.load(null, dir.resolve("missing").toString(), null, dir.toString()));
        assertTrue(e.getMessage().startsWith("cannot read the device file " + dir.resolve("missing")
            + " (JROCE_DEVICES=" + dir.resolve("missing") + "): "), e.getMessage());
    }

    @Test
    void oneLinePerDeviceWithItsAddressesAndPort() throws Exception {
        DeviceRegistry r = DeviceRegistry.parse("""
            # name  addresses           port
            jroce0  127.0.0.1
            jroce1  127.0.0.2 ::1  udp-port=4792   # two GIDs
            """, "f");
        assertEquals(List.of(new DeviceDefinition("jroce0", List.of("127.0.0.1"), 4791),
            new DeviceDefinition("jroce1", List.of("127.0.0.2", "::1"), 4792)), r.devices());
        assertEquals("jroce1", r.get("jroce1").name());
    }

    @Test
    void wrongLinesAreNamedWithTheirNumber() {
        assertEquals("f line 2: device b needs an address: NAME ADDRESS [ADDRESS ...] [udp-port=N]",
            refusal("a 127.0.0.1\nb\n"));
        assertEquals("f line 1: not an IP address literal: 'localhost'", refusal("a localhost\n"));
        assertEquals("f line 1: udp-port= takes 1..65535, got '0'", refusal("a 127.0.0.1 udp-port=0\n"));
        assertEquals("f line 2: device a is defined twice", refusal("a 127.0.0.1\na 127.0.0.2\n"));
        assertEquals("f: defines no device", refusal("# nothing\n\n"));
    }

    @Test
    void anUnknownNameListsTheDevicesThatExist() throws Exception {
        DeviceRegistry r = DeviceRegistry.parse("a 127.0.0.1\nb 127.0.0.2\n", "JROCE_DEVICES=/x");
        UnknownDeviceException e = assertThrows(UnknownDeviceException.class, () -> r.get("c"));
        assertEquals("IB device 'c' wasn't found\nknown devices: a, b (JROCE_DEVICES=/x)", e.getMessage());
        assertEquals("c", e.deviceName());
    }

    private static String refusal(String text) {
        return assertThrows(UsageException.class, () -> DeviceRegistry.parse(text, "f")).getMessage();
    }
}
