package io.jroce.rnic.jmx;

import java.lang.management.ManagementFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a device's {@link DeviceMBean} in the platform MBean server as
 * {@code io.jroce:type=RdmaDevice,name=NAME}; a second device of the same name in the JVM (tests
 * open many) gets {@code ,instance=2}, then 3, and so on. A failure to register is logged and never
 * fails the device's open: metrics are not worth an RNIC.
 */
public final class DeviceMBeans {
    /** The JMX domain of jroce's MBeans. */
    public static final String DOMAIN = "io.jroce";
    private static final Logger LOG = LoggerFactory.getLogger(DeviceMBeans.class);

    private DeviceMBeans() {
    }

    /**
     * Registers {@code bean} under a name derived from {@code deviceName}.
     *
     * @param deviceName the device's name
     * @param bean its MBean
     * @return what unregisters it (run it when the device closes); does nothing if registering failed
     */
    public static Runnable register(String deviceName, DeviceMBean bean) {
        MBeanServer server;
        try {
            server = ManagementFactory.getPlatformMBeanServer();
        } catch (RuntimeException | Error e) {
            LOG.warn("device {}: no platform MBean server, so no JMX MBean: {}", deviceName, e.toString());
            return () -> { };
        }
        for (int instance = 1; ; instance++) {
            ObjectName name;
            try {
                name = objectName(deviceName, instance);
            } catch (MalformedObjectNameException e) {
                LOG.warn("device {}: no JMX MBean, its name does not make an ObjectName: {}", deviceName, e.getMessage());
                return () -> { };
            }
            try {
                server.registerMBean(bean, name);
                return () -> unregister(server, name);
            } catch (InstanceAlreadyExistsException e) {
                continue; // another open device of this name: try the next instance number
            } catch (JMException | RuntimeException e) {
                LOG.warn("device {}: its JMX MBean could not be registered: {}", deviceName, e.toString());
                return () -> { };
            }
        }
    }

    /**
     * The name of a device's MBean.
     *
     * @param deviceName the device's name
     * @param instance 1 for the first device of that name, 2 for the second open at once, ...
     * @return {@code io.jroce:type=RdmaDevice,name=NAME} with {@code ,instance=N} from 2 on
     * @throws MalformedObjectNameException never for a quoted name, but JMX declares it
     */
    public static ObjectName objectName(String deviceName, int instance) throws MalformedObjectNameException {
        return new ObjectName(DOMAIN + ":type=RdmaDevice,name=" + quoteIfNeeded(deviceName)
            + (instance > 1 ? ",instance=" + instance : ""));
    }

    /** Device names are free text: a name with ObjectName's special characters is quoted. */
    private static String quoteIfNeeded(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\\' || c == '\n') {
                return ObjectName.quote(name);
            }
        }
        return name.isEmpty() ? ObjectName.quote(name) : name;
    }

    private static void unregister(MBeanServer server, ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // someone else removed it already: nothing left to do
        } catch (JMException | RuntimeException e) {
            LOG.warn("{}: could not unregister: {}", name, e.toString());
        }
    }
}
