package io.jroce.rnic.jmx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.ReflectionException;

import io.jroce.stack.stats.Counter;
import io.jroce.stack.stats.Counters;
import io.jroce.verbs.Gid;
import io.jroce.verbs.RdmaDevice;

/**
 * One device as a read-only MBean: an attribute per counter, named as {@code jroce devinfo -c} and
 * rxe's hw_counters name them ({@code sent_pkts}, {@code drop_bad_icrc}, ...), each a {@code long};
 * and {@code Name}, {@code Gids} (as strings) and {@code ActiveMtu} (bytes). Dynamic rather than a
 * standard MBean interface: the counters are an enum, and a getter per counter would be a second
 * list of them to keep in step.
 */
public final class DeviceMBean implements DynamicMBean {
    static final String NAME = "Name";
    static final String GIDS = "Gids";
    static final String ACTIVE_MTU = "ActiveMtu";
    private static final MBeanInfo INFO = info();
    private static final Map<String, Counter> COUNTERS = byName();

    private final RdmaDevice device;
    private final Counters counters;
    private final int activeMtuBytes;

    /**
     * The MBean of a device.
     *
     * @param device the device
     * @param counters its counters
     * @param activeMtuBytes its port's active MTU in bytes
     */
    public DeviceMBean(RdmaDevice device, Counters counters, int activeMtuBytes) {
        this.device = device;
        this.counters = counters;
        this.activeMtuBytes = activeMtuBytes;
    }

    private static MBeanInfo info() {
        List<MBeanAttributeInfo> attrs = new ArrayList<>();
        attrs.add(new MBeanAttributeInfo(NAME, String.class.getName(), "the device's name", true, false, false));
        attrs.add(new MBeanAttributeInfo(GIDS, String[].class.getName(), "the port's GIDs, index 0 first", true, false, false));
        attrs.add(new MBeanAttributeInfo(ACTIVE_MTU, int.class.getName(), "the port's active MTU in bytes", true, false, false));
        for (Counter c : Counter.values()) {
            attrs.add(new MBeanAttributeInfo(c.counterName(), long.class.getName(),
                "counter " + c.counterName() + (c.isDrop() ? " (received packets dropped for this reason)" : ""),
                true, false, false));
        }
        return new MBeanInfo(DeviceMBean.class.getName(), "a jroce RDMA device: its identity and counters",
            attrs.toArray(new MBeanAttributeInfo[0]), null, null, null);
    }

    private static Map<String, Counter> byName() {
        Map<String, Counter> m = new HashMap<>();
        for (Counter c : Counter.values()) {
            m.put(c.counterName(), c);
        }
        return Map.copyOf(m);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        if (attribute == null) {
            throw new AttributeNotFoundException("null attribute name");
        }
        switch (attribute) {
            case NAME:
                return device.name();
            case GIDS:
                return device.gids().stream().map(Gid::toString).toArray(String[]::new);
            case ACTIVE_MTU:
                return activeMtuBytes;
            default:
                Counter c = COUNTERS.get(attribute);
                if (c == null) {
                    throw new AttributeNotFoundException("no attribute " + attribute + " on a jroce device");
                }
                return counters.get(c);
        }
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("a jroce device's attributes are read-only: "
            + (attribute == null ? null : attribute.getName()));
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        if (attributes == null) {
            return list;
        }
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException e) {
                // JMX's contract: attributes that cannot be read are left out of the list
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList(); // none is writable: none was set
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName),
            "a jroce device's MBean has no operations: " + actionName);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return INFO;
    }
}
