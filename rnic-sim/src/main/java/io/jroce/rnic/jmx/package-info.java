/**
 * A device's counters where Java operations tools read metrics: one JMX MBean per open device in the
 * platform MBean server ({@code io.jroce:type=RdmaDevice,name=NAME}), registered when the device
 * opens and gone when it closes (docs/configuration.md, "JMX"). Reading an attribute reads the
 * device's atomic counters; nothing is added to the data path.
 *
 * <p>Internal: the object name and the attributes are what jroce promises, not these classes
 * (docs/versioning.md).
 */
package io.jroce.rnic.jmx;
