package io.jroce.rnic.core;

import java.util.List;

import io.jroce.verbs.Gid;
import io.jroce.verbs.ProtectionDomain;

/**
 * What a memory region, memory window or address handle needs from its protection domain: the
 * device's GID table and word of its own release. An interface, so that those resources (which
 * the engines see as {@link RegionAccess}, {@link WindowAccess} and {@link UdDestination}) do not
 * depend on the PD's class, and through it on the device.
 */
interface PdOwner extends ProtectionDomain {
    /** The device's GID table. */
    List<Gid> gids();

    /** {@code mr} is deregistered: its key goes (on the I/O thread). */
    void deregister(SoftMr mr);

    /** {@code mw} is deallocated: it is invalidated and its key goes (on the I/O thread). */
    void deallocWindow(SoftMw mw);

    /** An address handle of this PD is destroyed. */
    void ahDestroyed();
}
