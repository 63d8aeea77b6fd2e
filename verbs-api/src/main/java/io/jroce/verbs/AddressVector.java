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

    /** An address vector with no destination yet: source GID index 0, hop limit 64, UDP port 4791. */
    public AddressVector() {
    }

    /**
     * The destination GID: the peer's IP address.
     *
     * @return the GID
     */
    public Gid destGid() {
        return destGid;
    }

    /**
     * Sets the destination GID: the peer's IP address.
     *
     * @param destGid the GID
     * @return this address vector
     */
    public AddressVector destGid(Gid destGid) {
        this.destGid = destGid;
        return this;
    }

    /**
     * The index of the local GID (source address) in the device's GID table.
     *
     * @return the index
     */
    public int sgidIndex() {
        return sgidIndex;
    }

    /**
     * Sets the index of the local GID (source address) in the device's GID table.
     *
     * @param sgidIndex the index
     * @return this address vector
     */
    public AddressVector sgidIndex(int sgidIndex) {
        this.sgidIndex = sgidIndex;
        return this;
    }

    /**
     * The IP hop limit (TTL) of the packets.
     *
     * @return the hop limit, 0..255 (64 by default)
     */
    public int hopLimit() {
        return hopLimit;
    }

    /**
     * Sets the IP hop limit (TTL) of the packets.
     *
     * @param hopLimit the hop limit, 0..255 (64 by default)
     * @return this address vector
     */
    public AddressVector hopLimit(int hopLimit) {
        this.hopLimit = hopLimit;
        return this;
    }

    /**
     * The traffic class: the IP header's DSCP and ECN bits.
     *
     * @return the traffic class, 0..255
     */
    public int trafficClass() {
        return trafficClass;
    }

    /**
     * Sets the traffic class: the IP header's DSCP and ECN bits.
     *
     * @param trafficClass the traffic class, 0..255
     * @return this address vector
     */
    public AddressVector trafficClass(int trafficClass) {
        this.trafficClass = trafficClass;
        return this;
    }

    /**
     * The IPv6 flow label of the packets (20 bits).
     *
     * @return the flow label
     */
    public int flowLabel() {
        return flowLabel;
    }

    /**
     * Sets the IPv6 flow label of the packets (20 bits).
     *
     * @param flowLabel the flow label
     * @return this address vector
     */
    public AddressVector flowLabel(int flowLabel) {
        this.flowLabel = flowLabel;
        return this;
    }

    /**
     * The service level (on RoCE, the Ethernet priority; not carried by a UDP datagram).
     *
     * @return the service level, 0..15
     */
    public int serviceLevel() {
        return serviceLevel;
    }

    /**
     * Sets the service level (on RoCE, the Ethernet priority; not carried by a UDP datagram).
     *
     * @param serviceLevel the service level, 0..15
     * @return this address vector
     */
    public AddressVector serviceLevel(int serviceLevel) {
        this.serviceLevel = serviceLevel;
        return this;
    }

    /**
     * The destination UDP port (a jroce extension).
     *
     * @return the port, 4791 unless two RNICs share one IP address
     */
    public int udpPort() {
        return udpPort;
    }

    /**
     * Sets the destination UDP port (a jroce extension).
     *
     * @param udpPort the port, 4791 unless two RNICs share one IP address
     * @return this address vector
     */
    public AddressVector udpPort(int udpPort) {
        this.udpPort = udpPort;
        return this;
    }

    /**
     * A copy, so that a caller's later changes do not reach a resource that keeps it.
     *
     * @return a new address vector with the same values
     */
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
