/** The librdmacm-shaped RDMA CM API over real UDP: connect, transfer, reject, disconnect. */
package io.jroce.tests.cm;
