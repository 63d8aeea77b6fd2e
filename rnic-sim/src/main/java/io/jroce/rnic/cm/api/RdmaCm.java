package io.jroce.rnic.cm.api;

import io.jroce.verbs.cm.RdmaEventChannel;

/** The entry point of RDMA connection management over jroce devices opened with {@code SoftRnic.builder().open()}. */
public final class RdmaCm {
    private RdmaCm() {
    }

    /** {@code rdma_create_event_channel}. */
    public static RdmaEventChannel createEventChannel() {
        return new SoftEventChannel();
    }
}
