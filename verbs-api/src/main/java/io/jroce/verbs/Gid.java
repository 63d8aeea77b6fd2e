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
    public static final int LENGTH = 16;
    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /** A GID from its 16 bytes, network order. */
    public static Gid of(byte[] bytes) {
        if (bytes == null || bytes.length != LENGTH) {
            throw new InvalidAttributeException("a GID has 16 bytes, got "
                + (bytes == null ? "null" : bytes.length));
        }
        return new Gid(bytes.clone());
    }

    /** The GID of an IP address: IPv4 becomes IPv4-mapped. */
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

    /** Parses an IP address literal (no name lookup) into its GID. */
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

    /** Parses 32 hex digits, the form ibv_*_pingpong exchange ("wire GID"). */
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

    /** The 16 bytes, network order (a copy). */
    public byte[] toBytes() {
        return raw.clone();
    }

    /** Copies the 16 bytes into {@code dst} at {@code offset}. */
    public void copyTo(byte[] dst, int offset) {
        System.arraycopy(raw, 0, dst, offset, LENGTH);
    }

    public byte byteAt(int i) {
        return raw[i];
    }

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
     */
    public boolean isMulticast() {
        if (raw[0] == (byte) 0xff) {
            return true;
        }
        return isIpv4Mapped() && (raw[12] & 0xf0) == 0xe0;
    }

    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** The IP address this GID stands for (an {@link Inet4Address} when IPv4-mapped). */
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

    /** 32 lowercase hex digits, network order, as ibv_*_pingpong send it. */
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
