package io.jroce.tests.interop;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The GID that ends an ibv_*_pingpong address line ("... GID fd8d:f7e:d0da::2"), compared as an
 * address: the tools print IPv6 groups without leading zeros, while an address Docker reports may
 * carry them ("fd8d:0f7e:..."), and the bridge's prefix is random.
 */
final class GidLines {
    private GidLines() {
    }

    /** True when {@code line} ends with "GID " and an address equal to {@code address}. */
    static boolean endsWithGid(String line, String address) {
        int at = line.lastIndexOf("GID ");
        if (at < 0) {
            return false;
        }
        try {
            return InetAddress.getByName(line.substring(at + 4).trim()).equals(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
