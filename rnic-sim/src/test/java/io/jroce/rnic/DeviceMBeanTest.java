package io.jroce.rnic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.management.Attribute;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;

import org.junit.jupiter.api.Test;

import io.jroce.rnic.jmx.DeviceMBeans;
import io.jroce.stack.fabric.SimulatedFabric;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.ReceiveWorkRequest;
import io.jroce.verbs.ScatterGatherEntry;
import io.jroce.verbs.SendFlags;
import io.jroce.verbs.SendWorkRequest;
import io.jroce.verbs.WrOpcode;

/**
 * An open device is an MBean of the platform server with its counters as read-only attributes,
 * read as the device counts them; it goes when the device closes; devices of the same name get
 * instance numbers; {@code jmx(false)} registers none.
 */
class DeviceMBeanTest {
    private static final AtomicInteger NEXT = new AtomicInteger();
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    /** A name no other test in this JVM uses, so that instance numbers are this test's own. */
    private static String uniqueName(String what) {
        return "jmx-" + what + "-" + NEXT.incrementAndGet() + "-" + ProcessHandle.current().pid();
    }

    @Test
    void theCountersAreAttributesThatFollowTheDevice() throws Exception {
        SimulatedFabric fabric = new SimulatedFabric();
        String nameA = uniqueName("a");
        ChannelFabricPair.Side a = new ChannelFabricPair.Side(fabric, nameA, "10.0.0.1", 16);
        ChannelFabricPair.Side b = new ChannelFabricPair.Side(fabric, uniqueName("b"), "10.0.0.2", 16);
        ObjectName name = DeviceMBeans.objectName(nameA, 1);
        try {
            QpConnector rc = QpConnector.rc().accessFlags(FabricPair.ACCESS);
            rc.connect(a.qp, 0x100, RemoteQp.of(b.qp, 0x200, b.device.gids().get(0)));
            rc.connect(b.qp, 0x200, RemoteQp.of(a.qp, 0x100, a.device.gids().get(0)));
            assertEquals(0L, server.getAttribute(name, "sent_pkts"));
            b.qp.postRecv(new ReceiveWorkRequest().wrId(2).sgList(ScatterGatherEntry.of(b.mr, 0, 4096)));
            a.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED)
                .sgList(ScatterGatherEntry.of(a.mr, 0, 3000)));
            FabricCompletions.await(fabric, a.cq, 1, ChannelFabricPair.MAX_RUN_NS, () -> "");

            assertEquals(nameA, server.getAttribute(name, "Name"));
            assertArrayEquals(new String[] {a.device.gids().get(0).toString()}, (String[]) server.getAttribute(name, "Gids"));
            assertEquals(4096, server.getAttribute(name, "ActiveMtu"));
            long sent = (Long) server.getAttribute(name, "sent_pkts");
            assertEquals(3L, sent, "3000 B at path MTU 1024: three packets");
            assertEquals(a.device.counters().get("sent_pkts"), sent);
            assertEquals(a.device.counters().get("rcvd_pkts"), server.getAttribute(name, "rcvd_pkts"));
            assertEquals(3000L, server.getAttribute(name, "sent_bytes"));

            // every counter devinfo -c prints is an attribute, and nothing else but the three above
            List<String> attributes = Arrays.stream(server.getMBeanInfo(name).getAttributes())
                .map(MBeanAttributeInfo::getName).toList();
            assertEquals(a.device.counters().size() + 3, attributes.size());
            assertTrue(attributes.containsAll(a.device.counters().keySet()));
            assertTrue(Arrays.stream(server.getMBeanInfo(name).getAttributes()).noneMatch(MBeanAttributeInfo::isWritable));
            assertEquals(List.of(nameA, 3L),
                server.getAttributes(name, new String[] {"Name", "no_such", "sent_pkts"}).asList().stream()
                    .map(Attribute::getValue).toList(), "an unknown attribute is left out of a bulk read");

            assertThrows(AttributeNotFoundException.class, () -> server.getAttribute(name, "no_such_counter"));
            assertThrows(AttributeNotFoundException.class, () -> server.setAttribute(name, new Attribute("sent_pkts", 0L)));
            assertThrows(ReflectionException.class, () -> server.invoke(name, "reset", null, null));
        } finally {
            a.close();
            b.close();
        }
        assertFalse(server.isRegistered(name), "closing the device unregisters its MBean");
    }

    @Test
    void devicesOfOneNameGetInstanceNumbersAndJmxOffRegistersNone() throws Exception {
        SimulatedFabric fabric = new SimulatedFabric();
        String shared = uniqueName("same");
        try (RdmaDevice first = SoftRnic.builder().name(shared).address("10.0.0.1").openOn(fabric);
             RdmaDevice second = SoftRnic.builder().name(shared).address("10.0.0.2").openOn(fabric)) {
            assertTrue(server.isRegistered(DeviceMBeans.objectName(shared, 1)));
            ObjectName secondName = DeviceMBeans.objectName(shared, 2);
            assertEquals(second.gids().get(0).toString(), ((String[]) server.getAttribute(secondName, "Gids"))[0]);
        }
        assertEquals(0, server.queryNames(new ObjectName("io.jroce:type=RdmaDevice,name=" + shared + ",*"), null).size());

        String off = uniqueName("off");
        try (RdmaDevice quiet = SoftRnic.builder().name(off).address("10.0.0.3").jmx(false).openOn(fabric)) {
            assertEquals(0, server.queryNames(new ObjectName("io.jroce:type=RdmaDevice,name=" + off + ",*"), null).size());
        }
    }

    @Test
    void aNameWithObjectNameSyntaxIsQuoted() throws Exception {
        String odd = "dev,with=odd:chars " + NEXT.incrementAndGet();
        try (RdmaDevice dev = SoftRnic.builder().name(odd).address("10.0.0.1").openOn(new SimulatedFabric())) {
            ObjectName name = DeviceMBeans.objectName(odd, 1);
            assertEquals(ObjectName.quote(odd), name.getKeyProperty("name"));
            assertEquals(odd, server.getAttribute(name, "Name"));
        }
    }
}
