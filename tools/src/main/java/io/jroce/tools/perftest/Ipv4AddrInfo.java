package io.jroce.tools.perftest;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * perftest 4.5-0.17's {@code check_add_port}: {@code getaddrinfo} of the server's name with
 * {@code ai_family = AF_INET} (its TCP and its {@code -R} exchange alike; {@code --ipv6-addr}, which
 * lets later perftest use IPv6, does not exist yet), and on failure glibc's {@code gai_strerror}
 * line {@code "<error> for <host>:<port>"} before the caller's lines. An IPv6 literal, or a name with
 * IPv6 addresses only, is {@code EAI_ADDRFAMILY}; a name that does not resolve {@code EAI_NONAME}.
 */
final class Ipv4AddrInfo {
    static final String EAI_ADDRFAMILY = "Address family for hostname not supported";
    static final String EAI_NONAME = "Name or service not known";

    private Ipv4AddrInfo() {
    }

    /**
     * The IPv4 addresses of {@code host}, in the resolver's order.
     *
     * @param failure the lines perftest prints after the gai_strerror line
     * @throws PerftestException none: the gai_strerror line, then {@code failure}
     */
    static List<InetAddress> resolve(String host, int port, String failure) throws PerftestException {
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new PerftestException(EAI_NONAME + " for " + host + ":" + port + "\n" + failure);
        }
        List<InetAddress> v4 = Arrays.stream(all).filter(a -> a instanceof Inet4Address).toList();
        if (v4.isEmpty()) {
            throw new PerftestException(EAI_ADDRFAMILY + " for " + host + ":" + port + "\n" + failure);
        }
        return v4;
    }
}
