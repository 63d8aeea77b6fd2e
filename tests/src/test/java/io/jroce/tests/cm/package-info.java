/**
 * The librdmacm-shaped RDMA CM API over real UDP: connect, transfer, reject, disconnect. Most tests
 * run on {@link io.jroce.tests.cm.CmUdpPair}, two devices on 127.0.0.1 and 127.0.0.2.
 */
package io.jroce.tests.cm;
