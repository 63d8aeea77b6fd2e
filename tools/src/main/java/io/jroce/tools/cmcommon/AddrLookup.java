package io.jroce.tools.cmcommon;

import io.jroce.verbs.Gid;
import io.jroce.verbs.InvalidAttributeException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * getaddrinfo as librdmacm's examples reach it through {@code rdma_getaddrinfo}: a node (a name, or
 * a literal only with {@code RAI_NUMERICHOST}) and a numeric service, with glibc's error codes and
 * texts ({@code gai_strerror}). Service names are not looked up: jroce's {@code rdma_getaddrinfo}
 * takes port numbers only.
 */
public final class AddrLookup {
    /** EAI_NONAME. */
    public static final int EAI_NONAME = -2;
    /** EAI_SERVICE. */
    public static final int EAI_SERVICE = -8;
    /** INADDR_ANY, 0.0.0.0: a wildcard of IPv4 only. */
    public static final InetAddress ANY_IPV4 = any(4);
    /** in6addr_any, {@code ::}: a wildcard that takes IPv4 too (Linux's default bindv6only=0). */
    public static final InetAddress ANY_IPV6 = any(16);

    private AddrLookup() {
    }

    /** An address, or the getaddrinfo error of a node or service that does not resolve. */
    public record Result(InetAddress address, int port, int error) {
        /**
         * Whether the lookup failed.
         *
         * @return true when {@link #error()} is set
         */
        public boolean failed() {
            return error != 0;
        }

        /**
         * gai_strerror.
         *
         * @return the text of {@link #error()}
         */
        public String errorText() {
            return error == EAI_SERVICE ? "Servname not supported for ai_socktype" : "Name or service not known";
        }
    }

    /**
     * Looks a node and service up as getaddrinfo does.
     *
     * @param node        the host, a literal or a name
     * @param service     the port, in decimal
     * @param numericHost RAI_NUMERICHOST: a name is EAI_NONAME, not looked up
     * @return the address and port, or the error
     */
    public static Result lookup(String node, String service, boolean numericHost) {
        int port = port(service);
        if (port < 0) {
            return new Result(null, 0, EAI_SERVICE);
        }
        if (node.isEmpty() || numericHost && !isLiteral(node)) {
            return new Result(null, 0, EAI_NONAME);
        }
        try {
            return new Result(InetAddress.getByName(node), port, 0);
        } catch (UnknownHostException e) {
            return new Result(null, 0, EAI_NONAME);
        }
    }

    /** A port number as getaddrinfo reads a numeric service, or -1. */
    static int port(String service) {
        if (service.isEmpty() || service.length() > 5 || !service.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int p = Integer.parseInt(service);
        return p <= 0xFFFF ? p : -1;
    }

    private static InetAddress any(int length) {
        try {
            return InetAddress.getByAddress(new byte[length]);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean isLiteral(String node) {
        try {
            Gid.parse(node);
            return true;
        } catch (InvalidAttributeException e) {
            return false;
        }
    }
}
