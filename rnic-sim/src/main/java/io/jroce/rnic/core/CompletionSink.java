package io.jroce.rnic.core;

import io.jroce.verbs.WorkCompletion;

/**
 * Where the RNIC's engines write completions: claim an entry, fill it, publish it (as rxe's
 * rxe_cq_post(cq, cqe, solicited) takes a whole CQE). One producer, the I/O thread; nothing here
 * allocates.
 */
public interface CompletionSink {
    /**
     * The entry to fill next, cleared of nothing (set every field you need, e.g. with
     * {@link io.jroce.verbs.spi.CompletionWriter#set}), or null when the queue is full: the completion is lost and the
     * sink has reported the overflow (CQ_ERR, IBTA 11.6.3).
     *
     * @return the entry, or null when the queue is full
     */
    WorkCompletion claim();

    /**
     * Makes the entry returned by the last {@link #claim()} visible to pollers; {@code solicited}
     * says the message carried the solicited-event bit, which matters to a queue armed for
     * solicited completions only (IBTA 11.4.2.2).
     *
     * @param solicited whether the message carried the solicited-event bit
     */
    void publish(boolean solicited);
}
