package io.jroce.verbs;

/**
 * Where packets of a connected QP (or a UD address handle) go: struct ibv_ah_attr with its GRH,
 * which RoCEv2 always uses. {@link #udpPort()} is a jroce extension: the destination UDP port,
 * 4791 unless two RNICs share one IP address (tests do that).
 */
public final class AddressVector {
    /** The IANA port of RoCEv2. */
    public static final int ROCE_V2_PORT = 4791;

    private Gid destGid;
    private int sgidIndex;
    private int hopLimit = 64;
    private int trafficClass;
    private int flowLabel;
    private int serviceLevel;
    private int udpPort = ROCE_V2_PORT;

    public Gid destGid() {
        return destGid;
    }

    public AddressVector destGid(Gid destGid) {
        this.destGid = destGid;
        return this;
    }

    /** Index of the local GID (source address) in the device's GID table. */
    public int sgidIndex() {
        return sgidIndex;
    }

    public AddressVector sgidIndex(int sgidIndex) {
        this.sgidIndex = sgidIndex;
        return this;
    }

    public int hopLimit() {
        return hopLimit;
    }

    public AddressVector hopLimit(int hopLimit) {
        this.hopLimit = hopLimit;
        return this;
    }

    public int trafficClass() {
        return trafficClass;
    }

    public AddressVector trafficClass(int trafficClass) {
        this.trafficClass = trafficClass;
        return this;
    }

    public int flowLabel() {
        return flowLabel;
    }

    public AddressVector flowLabel(int flowLabel) {
        this.flowLabel = flowLabel;
        return this;
    }

    public int serviceLevel() {
        return serviceLevel;
    }

    public AddressVector serviceLevel(int serviceLevel) {
        this.serviceLevel = serviceLevel;
        return this;
    }

    public int udpPort() {
        return udpPort;
    }

    public AddressVector udpPort(int udpPort) {
        this.udpPort = udpPort;
        return this;
    }

    public AddressVector copy() {
        AddressVector c = new AddressVector();
        c.destGid = destGid;
        c.sgidIndex = sgidIndex;
        c.hopLimit = hopLimit;
        c.trafficClass = trafficClass;
        c.flowLabel = flowLabel;
        c.serviceLevel = serviceLevel;
        c.udpPort = udpPort;
        return c;
    }

    @Override
    public String toString() {
        return "av{dgid=" + destGid + ", sgid_index=" + sgidIndex + ", hop_limit=" + hopLimit
            + ", tclass=" + trafficClass + ", flow_label=" + flowLabel + ", udp_port=" + udpPort + "}";
    }
}
