package io.jroce.verbs;

/**
 * Receives a device's asynchronous events. Called on the device's I/O thread: return quickly and
 * do not call verbs that wait for that thread (modify, destroy, dereg) from inside.
 */
@FunctionalInterface
public interface AsyncEventListener {
    /**
     * Handles one event.
     *
     * @param event what happened, and to which resource
     */
    void onEvent(AsyncEvent event);
}
