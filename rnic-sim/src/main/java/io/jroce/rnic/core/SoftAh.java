package io.jroce.rnic.core;

import io.jroce.verbs.AddressHandle;
import io.jroce.verbs.AddressVector;
import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.ProtectionDomain;

/** An address handle: the source and destination addresses of UD sends, resolved once. */
final class SoftAh implements AddressHandle, UdDestination {
    final PdOwner pd;
    final AddressVector av;
    final byte[] sgid = new byte[Gid.LENGTH];
    final byte[] dgid = new byte[Gid.LENGTH];
    private volatile boolean closed;

    SoftAh(PdOwner pd, AddressVector av) {
        if (av == null || av.destGid() == null) {
            throw new InvalidAttributeException("an address handle needs a destination GID (RoCE always uses the GRH)");
        }
        int gids = pd.gids().size();
        if (av.sgidIndex() < 0 || av.sgidIndex() >= gids) {
            throw new InvalidAttributeException("sgid_index " + av.sgidIndex() + " is outside the GID table (0.." + (gids - 1) + ")");
        }
        if (av.udpPort() < 1 || av.udpPort() > 65535) {
            throw new InvalidAttributeException("udp port must be 1..65535, got " + av.udpPort());
        }
        Gid source = pd.gids().get(av.sgidIndex());
        if (source.isIpv4Mapped() != av.destGid().isIpv4Mapped()) {
            throw new InvalidAttributeException("source GID " + source + " and destination GID " + av.destGid()
                + " are of different IP families");
        }
        this.pd = pd;
        this.av = av.copy();
        source.copyTo(sgid, 0);
        av.destGid().copyTo(dgid, 0);
    }

    @Override
    public AddressVector addressVector() {
        return av.copy();
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public byte[] sourceGid() {
        return sgid;
    }

    @Override
    public byte[] destGid() {
        return dgid;
    }

    @Override
    public int udpPort() {
        return av.udpPort();
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            pd.ahDestroyed();
        }
    }
}
