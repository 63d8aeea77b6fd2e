/**
 * Completion events and asynchronous events over UDP on loopback: completion channels
 * (ibv_req_notify_cq, ibv_get_cq_event, ibv_ack_cq_events; IBTA Vol. 1 11.4.2.2), including a
 * getEvent blocked on another thread, and the device's async events (CQ_ERR, QP_FATAL,
 * PORT_ACTIVE, PORT_ERR; IBTA Vol. 1 11.6.3). Waits are bounded only to catch hangs.
 */
package io.jroce.tests.events;
