package io.jroce.tools.cmcommon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Where the RDMA CM twins' tests put their two sides on loopback: a device each on
 * {@link #SERVER} and {@link #CLIENT}, sharing one UDP port (the RDMA CM sends to the peer's port
 * that is its own).
 */
public final class TwinAddresses {
    public static final String SERVER = "127.0.0.1";
    public static final String CLIENT = "127.0.0.2";
    /** A second address of a server's device, where nobody listens, for {@link ListenProbe}. */
    public static final String PROBE = "127.0.0.3";

    private TwinAddresses() {
    }

    /** A UDP port free on {@link #SERVER}, {@link #CLIENT} and {@link #PROBE}, for the devices' RoCE port. */
    public static int freeUdpPort() {
        while (true) {
            try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(SERVER), 0))) {
                int p = a.getLocalPort();
                try (DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(CLIENT), p));
                     DatagramSocket c = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(PROBE), p))) {
                    return p;
                } catch (IOException taken) {
                    // try another
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
