package io.jroce.verbs.exchange;

import java.io.IOException;

/**
 * An out-of-band exchange that failed, with the step it failed at, so a program can say it in its
 * own words (the pingpong twins print the C tools' lines from it).
 */
public final class ExchangeException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Where the exchange failed. */
    public enum Step {
        /** The client could not resolve the server's host name. */
        RESOLVE,
        /** The client could not connect to any address of the server. */
        CONNECT,
        /** The server could not listen on its port. */
        LISTEN,
        /** The server's wait for a client failed or timed out. */
        ACCEPT,
        /** Writing this side's messages failed. */
        SEND,
        /** Reading the peer's message {@link #index()} failed, ended early, or it was malformed. */
        RECEIVE,
        /** The server's step between reading the client's messages and answering (connecting its QPs) threw. */
        CONNECT_QPS,
        /** The closing "done": the client could not write it, or the server did not read it whole. */
        DONE
    }

    /** Where the exchange failed. */
    private final Step step;
    /** The message's index for {@link Step#RECEIVE}, else -1. */
    private final int index;
    /** The bytes of that message (or of "done") that arrived, else -1. */
    private final int received;

    /**
     * An exchange that failed.
     *
     * @param step where
     * @param index the message's index for {@link Step#RECEIVE}, else -1
     * @param received the bytes of that message (or of "done") that arrived, else -1
     * @param message what failed, in words
     * @param cause what the socket, the parser or the QP step threw; null when the peer closed the connection early
     */
    public ExchangeException(Step step, int index, int received, String message, Throwable cause) {
        super(message, cause);
        this.step = step;
        this.index = index;
        this.received = received;
    }

    /**
     * Where the exchange failed.
     *
     * @return the step
     */
    public Step step() {
        return step;
    }

    /**
     * Which of the peer's messages a {@link Step#RECEIVE} failure concerns (0 for the first).
     *
     * @return its index, -1 for other steps
     */
    public int index() {
        return index;
    }

    /**
     * How many bytes of the message (or of "done") arrived before the failure: fewer than its length
     * when the peer closed the connection early, its length when it arrived whole but malformed, 0 when
     * reading failed.
     *
     * @return the bytes received, -1 for steps that read nothing
     */
    public int received() {
        return received;
    }

    /**
     * Whether the peer closed the connection before the message (or "done") was whole.
     *
     * @return whether it ended early, with no error of the socket's own
     */
    public boolean peerClosed() {
        return getCause() == null && received >= 0;
    }
}
