package io.jroce.tests.support;

import io.jroce.verbs.Mtu;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixture of the data-path tests: two devices on one loopback address (each with its own free
 * UDP port, so they never clash with a demo on 4791), and the RC connections made between them.
 * One pair serves a whole test class; {@link #close()} tears everything down.
 */
public final class RcPair implements AutoCloseable {
    private final Node a;
    private final Node b;
    private final List<RcConnection> connections = new ArrayList<>();

    private RcPair(Node a, Node b) {
        this.a = a;
        this.b = b;
    }

    /** Two devices on {@code address} (e.g. 127.0.0.1 or ::1) with the given active MTU. */
    public static RcPair open(String address, Mtu activeMtu) {
        Node a = Node.open("jrocetA", address, activeMtu);
        try {
            return new RcPair(a, Node.open("jrocetB", address, activeMtu));
        } catch (RuntimeException | Error e) {
            a.close();
            throw e;
        }
    }

    public Node a() {
        return a;
    }

    public Node b() {
        return b;
    }

    /** A new connection, closed by {@link #close()} unless the test closes it first. */
    public RcConnection connect(RcConnection.Options options) {
        RcConnection c = RcConnection.connect(a, b, options);
        connections.add(c);
        return c;
    }

    /** Closes {@code c} now. */
    public void disconnect(RcConnection c) {
        connections.remove(c);
        c.close();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (RcConnection c : connections) {
            try {
                c.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        connections.clear();
        for (Node n : new Node[] {b, a}) {
            try {
                n.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
