package io.jroce.verbs;

/**
 * An asynchronous event (struct ibv_async_event).
 *
 * @param type     what happened
 * @param resource the QP, CQ or SRQ it concerns (null for port events)
 * @param portNum  the port for port events (1), else 0
 */
public record AsyncEvent(AsyncEventType type, Object resource, int portNum) {
}
