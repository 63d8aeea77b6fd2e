/**
 * The librdmacm-shaped API of {@link io.jroce.verbs.cm} over the {@link io.jroce.rnic.cm.ConnectionManager}
 * of each open device: {@link io.jroce.rnic.cm.api.RdmaCm#createEventChannel()} is the entry point,
 * {@link io.jroce.rnic.cm.api.CmDevices} the JVM-wide registry of open devices that address
 * resolution searches and wildcard listeners listen on, {@code CmPorts} the ports
 * the IDs hold, {@link io.jroce.rnic.cm.api.RdmaCm#createEp} the synchronous endpoints of
 * librdmacm's convenience layer. An ID's parts: {@code ListenerRequests}, {@code WildcardListener},
 * {@code CmMulticast}, {@code CmQpTransitions}; an endpoint's: {@code EndpointEvents},
 * {@code EndpointCompletions}, {@code EndpointWorkRequests}. See docs/cm-guide.md.
 */
package io.jroce.rnic.cm.api;
