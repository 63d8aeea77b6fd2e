/**
 * RC data-path system tests over real UDP on loopback: two devices on one address with different
 * free ports (127.0.0.1, and ::1 for IPv6), connected RC QPs, and every operation (SEND and RDMA
 * WRITE with and without immediate, RDMA READ, the two atomics) checked byte for byte on the other
 * side, with the exact completion on both sides and the packets counted. Also scatter/gather lists,
 * unsignaled work requests and long runs of back-to-back messages in posted order.
 *
 * <p>Each class opens one pair of devices for all its tests ({@link io.jroce.tests.support.RcPair})
 * and waits on completions with a bounded timeout that only guards against hangs.
 */
package io.jroce.tests.rc;
