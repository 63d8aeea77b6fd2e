package io.jroce.tools.perftest;

import java.io.Closeable;
import java.io.IOException;

/**
 * What carries perftest's out-of-band messages: a TCP socket ({@link TcpOobChannel}), or with -R
 * the control QP connected through the RDMA CM ({@link CmControlChannel}). Each message has a size
 * both sides know; the order of sends and receives is {@link PerftestComm}'s.
 */
interface OobChannel extends Closeable {
    /** Sends {@code data} whole. */
    void send(byte[] data) throws IOException;

    /** Receives the peer's next {@code length} bytes. */
    byte[] receive(int length) throws IOException;

    /** Whether this is the RDMA CM's control QP (the keys then go as a binary struct, and no "done"). */
    boolean rdmaCm();

    @Override
    void close();
}
