package io.jroce.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A 128-bit Global Identifier. On RoCEv2 a GID is an IP address: IPv6 as is, IPv4 in its
 * IPv4-mapped form {@code ::ffff:a.b.c.d} (IBTA Vol. 1 Annex A17, RoCEv2).
 */
public final class Gid {
    /** A GID's length in bytes. */
    public static final int LENGTH = 16;
    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /**
     * A GID from its bytes.
     *
     * @param bytes 16 bytes, network order (copied)
     * @return the GID
     * @throws InvalidAttributeException {@code bytes} is null or not 16 bytes long
     */
    public static Gid of(byte[] bytes) {
        if (bytes == null || bytes.length != LENGTH) {
            throw new InvalidAttributeException("a GID has 16 bytes, got "
                + (bytes == null ? "null" : bytes.length));
        }
        return new Gid(bytes.clone());
    }

    /**
     * The GID of an IP address.
     *
     * @param address an IPv4 or IPv6 address
     * @return the IPv6 address as is, or the IPv4-mapped form of an IPv4 one
     */
    public static Gid of(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length == 16) {
            return new Gid(a);
        }
        byte[] g = new byte[LENGTH];
        g[10] = (byte) 0xff;
        g[11] = (byte) 0xff;
        System.arraycopy(a, 0, g, 12, 4);
        return new Gid(g);
    }

    /**
     * Parses an IP address literal (no name lookup) into its GID.
     *
     * @param ipLiteral e.g. {@code 10.0.0.1} or {@code fe80::1}
     * @return the GID, as {@link #of(InetAddress)} makes it
     * @throws InvalidAttributeException the text is null or not an IP address literal
     */
    public static Gid parse(String ipLiteral) {
        Arguments.notNull(ipLiteral, "IP address literal");
        try {
            if (!ipLiteral.matches("[0-9a-fA-F:.%]+")) {
                throw new InvalidAttributeException("not an IP address literal: " + ipLiteral);
            }
            return of(InetAddress.getByName(ipLiteral));
        } catch (UnknownHostException e) {
            throw new InvalidAttributeException("not an IP address literal: " + ipLiteral, e);
        }
    }

    /**
     * Parses the form rdma-core's ibv_*_pingpong exchange ("wire GID").
     *
     * @param hex 32 hex digits, network order
     * @return the GID
     * @throws InvalidAttributeException the text is not 32 characters long
     */
    public static Gid fromWireHex(String hex) {
        if (hex.length() != 32) {
            throw new InvalidAttributeException("a wire GID has 32 hex digits: " + hex);
        }
        byte[] g = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            g[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new Gid(g);
    }

    /**
     * The GID's bytes.
     *
     * @return a copy of the 16 bytes, network order
     */
    public byte[] toBytes() {
        return raw.clone();
    }

    /**
     * Copies the GID's bytes into an array, allocating nothing.
     *
     * @param dst    the array
     * @param offset where the 16 bytes go
     */
    public void copyTo(byte[] dst, int offset) {
        System.arraycopy(raw, 0, dst, offset, LENGTH);
    }

    /**
     * One byte of the GID.
     *
     * @param i the index, 0..15, network order
     * @return the byte
     */
    public byte byteAt(int i) {
        return raw[i];
    }

    /**
     * Whether the GID is an IPv4-mapped IPv6 address, {@code ::ffff:a.b.c.d}.
     *
     * @return true for an IPv4 address's GID
     */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xff && raw[11] == (byte) 0xff;
    }

    /**
     * Whether this GID is a multicast GID as rdma_is_multicast_addr (rdma-core and the kernel's
     * ib_addr.h) sees it: an IPv6 multicast address (ff00::/8) or an IPv4-mapped 224.0.0.0/4 one.
     *
     * @return true for a multicast GID
     */
    public boolean isMulticast() {
        if (raw[0] == (byte) 0xff) {
            return true;
        }
        return isIpv4Mapped() && (raw[12] & 0xf0) == 0xe0;
    }

    /**
     * Whether every byte is 0 (the unspecified address {@code ::}).
     *
     * @return true for the zero GID
     */
    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The IP address this GID stands for.
     *
     * @return an {@link Inet4Address} when IPv4-mapped, else an {@link Inet6Address}
     */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                return InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16));
            }
            return Inet6Address.getByAddress(null, raw.clone(), null);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The form rdma-core's ibv_*_pingpong send.
     *
     * @return 32 lowercase hex digits, network order
     */
    public String toWireHex() {
        StringBuilder sb = new StringBuilder(32);
        for (byte b : raw) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid && Arrays.equals(raw, ((Gid) o).raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }

    /** The colon form ibv_devinfo -v prints, e.g. {@code 0000:0000:0000:0000:0000:ffff:7f00:0001}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < LENGTH; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x%02x", raw[i] & 0xff, raw[i + 1] & 0xff));
        }
        return sb.toString();
    }
}
