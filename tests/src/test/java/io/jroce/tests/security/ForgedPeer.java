package io.jroce.tests.security;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;

import io.jroce.stack.icrc.IcrcCalculator;
import io.jroce.stack.wire.ParseResult;
import io.jroce.stack.wire.RocePacket;
import io.jroce.tests.support.Node;
import io.jroce.verbs.QpConnector;
import io.jroce.verbs.RemoteQp;
import io.jroce.verbs.AccessFlags;
import io.jroce.verbs.Gid;
import io.jroce.verbs.Mtu;
import io.jroce.verbs.QueuePair;

/**
 * A fake RC peer on 127.0.0.1: a plain UDP socket that the victim's QPs are connected to, which
 * writes RoCEv2 packets by hand (with the ICRC a real NIC computes, IP ID 0 and DF) and reads what
 * the victim sends back.
 */
final class ForgedPeer implements AutoCloseable {
    static final String ADDRESS = "127.0.0.1";
    static final Mtu MTU = Mtu.MTU_1024;
    private static final int LOOPBACK = 0x7F000001;
    private static final long RECEIVE_TIMEOUT_MS = 30_000;

    private final DatagramSocket socket;
    private final Node victim;
    private final byte[] out = new byte[4096];
    private final UnsafeBuffer outBuffer = new UnsafeBuffer(out);
    private final RocePacket building = new RocePacket();
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final byte[] in = new byte[4096];

    ForgedPeer(Node victim) throws IOException {
        this.victim = victim;
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(ADDRESS), 0));
        socket.setSoTimeout((int) RECEIVE_TIMEOUT_MS);
    }

    /** Brings {@code qp} to RTS connected to this peer as QP {@code peerQpn}, expecting {@code rqPsn}, sending from {@code sqPsn}. */
    void connect(QueuePair qp, int peerQpn, int rqPsn, int sqPsn, int rnrRetry) {
        // timeout 20: about 4 s, so that the victim does not resend while a test talks to it.
        QpConnector.rc().accessFlags(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ).pathMtu(MTU)
            .sgidIndex(victim.gidIndex()).minRnrTimer(1).timeout(20).retryCount(7).rnrRetry(rnrRetry)
            .connect(qp, sqPsn, peerAt(peerQpn, rqPsn));
    }

    /** This peer as QP {@code qpn} sending from {@code psn}: what a victim QP connects to. */
    RemoteQp peerAt(int qpn, int psn) {
        return new RemoteQp(qpn, psn, Gid.parse(ADDRESS), socket.getLocalPort());
    }

    /** The UDP port this peer sends from and receives on. */
    int port() {
        return socket.getLocalPort();
    }

    /**
     * Sends one packet to the victim's QP {@code destQp}: {@code opcode} at {@code psn} with
     * {@code payload}, its extension headers filled in by {@code headers}, and a valid ICRC.
     */
    void send(int opcode, int destQp, int psn, byte[] payload, Consumer<RocePacket> headers) throws IOException {
        int length = building.build(outBuffer, 0, opcode, payload.length);
        building.bth().partitionKey(0xFFFF).destQp(destQp).psn(psn);
        headers.accept(building);
        outBuffer.putBytes(building.payloadOffset(), payload);
        int crc = icrc.computeIpv4(LOOPBACK, LOOPBACK, 0, IcrcCalculator.IPV4_FLAGS_DF, socket.getLocalPort(),
            victim.port(), outBuffer, 0, length);
        IcrcCalculator.writeIcrc(outBuffer, length, crc);
        socket.send(new DatagramPacket(out, length + 4, new InetSocketAddress(InetAddress.getByName(ADDRESS), victim.port())));
    }

    /** The next packet the victim sends, parsed (ICRC stripped); fails after 30 s. */
    RocePacket receive() throws IOException {
        DatagramPacket d = new DatagramPacket(in, in.length);
        socket.receive(d);
        RocePacket p = new RocePacket();
        byte[] copy = java.util.Arrays.copyOf(in, d.getLength() - 4);
        if (p.wrap(new UnsafeBuffer(copy), 0, copy.length) != ParseResult.OK) {
            throw new AssertionError("the victim sent a packet that does not parse");
        }
        return p;
    }

    /** The next packet the victim sends, as "OPCODE_NAME psn". */
    String receiveName() throws IOException {
        RocePacket p = receive();
        return p.info().name() + " " + p.bth().psn();
    }

    @Override
    public void close() {
        socket.close();
    }
}
