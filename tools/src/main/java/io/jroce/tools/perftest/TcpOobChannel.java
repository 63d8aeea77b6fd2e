package io.jroce.tools.perftest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/** perftest's TCP socket (ethernet_client_connect / ethernet_server_connect), Nagle off. */
final class TcpOobChannel implements OobChannel {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    TcpOobChannel(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        socket.setTcpNoDelay(true);
    }

    @Override
    public void send(byte[] data) throws IOException {
        out.write(data);
        out.flush();
    }

    @Override
    public byte[] receive(int length) throws IOException {
        byte[] data = in.readNBytes(length);
        if (data.length != length) {
            throw new IOException("the peer sent " + data.length + " of " + length
                + " bytes and closed the connection");
        }
        return data;
    }

    @Override
    public boolean rdmaCm() {
        return false;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the run is over
        }
    }
}
