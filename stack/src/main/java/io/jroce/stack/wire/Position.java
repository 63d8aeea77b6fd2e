package io.jroce.stack.wire;

/** Where a packet sits in its message; single-packet operations (READ request, ACK, atomics) are ONLY. */
public enum Position {
    FIRST,
    MIDDLE,
    LAST,
    ONLY;

    /** True for FIRST and ONLY: the packet begins a message. */
    public boolean startsMessage() {
        return this == FIRST || this == ONLY;
    }

    /** True for LAST and ONLY: the packet completes a message. */
    public boolean endsMessage() {
        return this == LAST || this == ONLY;
    }
}
