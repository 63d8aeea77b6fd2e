/**
 * The librdmacm-shaped API of {@link io.jroce.verbs.cm} over the {@link io.jroce.rnic.cm.ConnectionManager}
 * of each open device: {@link io.jroce.rnic.cm.api.RdmaCm#createEventChannel()} is the entry point,
 * {@link io.jroce.rnic.cm.api.CmDevices} the JVM-wide registry of open devices that address
 * resolution searches and wildcard listeners listen on, {@code CmPorts} the ports
 * the IDs hold, {@link io.jroce.rnic.cm.api.RdmaCm#createEp} the synchronous endpoints of
 * librdmacm's convenience layer. An ID ({@code SoftCmId}, the application's calls checked against
 * {@code CmIdState}) has its parts: where it is ({@code CmIdRoute}), its events ({@code CmIdEvents}),
 * an RC connection ({@code RcConnection}, {@code CmQpTransitions}), a UD ID's SIDR exchange
 * ({@code SidrExchange}), a listener's listening ({@code CmListening}, {@code ListenerRequests},
 * {@code WildcardListener}) and its multicast groups ({@code CmMulticast}); an endpoint
 * ({@code SoftEndpoint}, made by {@code EndpointCreation}) has {@code EndpointEvents},
 * {@code EndpointQueues}, {@code EndpointCompletions} and {@code EndpointWorkRequests}. See
 * docs/cm-guide.md.
 *
 * <p>{@link io.jroce.rnic.cm.api.RdmaCm} is an entry point of jroce's API; the other types here are
 * internal and may change in any release (docs/versioning.md).
 */
package io.jroce.rnic.cm.api;
