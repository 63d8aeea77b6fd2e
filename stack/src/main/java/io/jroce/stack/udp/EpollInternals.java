package io.jroce.stack.udp;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventArray;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;

/**
 * The package-private corners of Netty's native epoll transport that {@link DirectUdpTransport}
 * reaches, once, when this class initialises; the only place in jroce that does so. Checked against
 * Netty 4.1.118.Final ({@code transport-classes-epoll} {@code Native.java},
 * {@code NativeDatagramPacketArray.java}, {@code EpollEventArray.java}, and
 * {@code transport-native-epoll/src/main/c/netty_epoll_native.c}; for {@link #sendTo},
 * {@code transport-native-unix-common} {@code Socket.java} and {@code netty_unix_socket.c}).
 *
 * <p><b>Why.</b> Netty's public datagram calls allocate per datagram: {@code Socket.recvFromAddress}
 * returns a new {@code DatagramSocketAddress} (and a new {@code byte[]} for its address) for every
 * read, {@code Socket.sendToAddress} copies the address into a new {@code byte[]} for every send.
 * Netty's own channels avoid that with the native {@code recvmmsg0}/{@code sendmmsg0} of
 * {@code io.netty.channel.epoll.Native}, which read and write the fields of
 * {@code NativeDatagramPacketArray.NativeDatagramPacket} entries in place (the JNI code holds their
 * field IDs): the iovec address and count, the 16-byte sender and recipient address arrays with
 * their lengths, scope IDs and ports, and the UDP GSO/GRO segment size. Those methods, the entries'
 * constructor and fields are not public, and no public API does the same; so this class looks them
 * up with {@link MethodHandles#privateLookupIn} (which works on the class path and for Netty's
 * automatic modules) and adapts them to types jroce can name ({@code Object} for an entry,
 * {@code Object[]} for an array of them). Held in static final fields and invoked exactly, they
 * compile to direct field accesses and native calls: nothing is allocated per call.
 *
 * <p>The natives return {@code -errno} instead of throwing (Netty's package-private wrappers turn
 * that into an {@code IOException}, allocated). Note from the C code: {@code recvmmsg0} and
 * {@code recvmsg0} overwrite an entry's {@code count} (its iovec count on the way in) with the
 * number of bytes received, so it must be set again before every read.
 *
 * <p>If any lookup fails (another Netty version), {@link #DATAGRAMS_AVAILABLE} is false and the
 * transport uses Netty's public, allocating calls instead. {@link EpollEventArray}, whose
 * constructor is package-private, is needed for {@code Native.epollWait} in every case.
 */
final class EpollInternals {
    /** True when every datagram handle below was found. */
    static final boolean DATAGRAMS_AVAILABLE;
    /** Why {@link #DATAGRAMS_AVAILABLE} is false, or null. */
    static final Throwable DATAGRAMS_UNAVAILABILITY_CAUSE;

    /**
     * True when Netty's {@code Socket.sendToAddress} native was found ({@link #sendTo}); independent
     * of {@link #DATAGRAMS_AVAILABLE}, which is checked before it is used.
     */
    static final boolean SEND_TO_AVAILABLE;
    /**
     * {@code (int fd, boolean ipv6, long memoryAddress, int pos, int limit, byte[] address, int scopeId,
     * int port, int flags) -> int}: bytes sent or -errno.
     */
    private static final MethodHandle SEND_TO_ADDRESS;
    /** {@code (int fd, boolean ipv6, Object[] packets, int offset, int len) -> int}: messages sent or -errno. */
    private static final MethodHandle SENDMMSG0;
    /** {@code (int fd, boolean ipv6, Object[] packets, int offset, int len) -> int}: messages read or -errno. */
    private static final MethodHandle RECVMMSG0;
    /** {@code (int fd, boolean ipv6, Object packet) -> int}: bytes read or -errno. */
    private static final MethodHandle RECVMSG0;
    private static final MethodHandle NEW_PACKET;
    private static final Class<?> PACKET_CLASS;
    private static final MethodHandle SET_MEMORY_ADDRESS;
    private static final MethodHandle SET_COUNT;
    private static final MethodHandle GET_COUNT;
    private static final MethodHandle GET_SENDER_ADDR;
    private static final MethodHandle GET_SENDER_ADDR_LEN;
    private static final MethodHandle GET_SENDER_PORT;
    private static final MethodHandle GET_RECIPIENT_ADDR;
    private static final MethodHandle SET_RECIPIENT_ADDR_LEN;
    private static final MethodHandle SET_RECIPIENT_SCOPE_ID;
    private static final MethodHandle SET_RECIPIENT_PORT;
    private static final MethodHandle SET_SEGMENT_SIZE;
    private static final MethodHandle GET_SEGMENT_SIZE;

    static {
        MethodHandle sendmmsg0 = null;
        MethodHandle recvmmsg0 = null;
        MethodHandle recvmsg0 = null;
        MethodHandle newPacket = null;
        Class<?> packetClass = null;
        MethodHandle[] fields = new MethodHandle[12];
        Throwable cause = null;
        try {
            Epoll.ensureAvailability();
            Class<?> nativeClass = Class.forName("io.netty.channel.epoll.Native");
            Class<?> arrayClass = Class.forName("io.netty.channel.epoll.NativeDatagramPacketArray");
            packetClass = Class.forName("io.netty.channel.epoll.NativeDatagramPacketArray$NativeDatagramPacket");
            Class<?> packets = packetClass.arrayType();
            MethodHandles.Lookup nativeLookup = MethodHandles.privateLookupIn(nativeClass, MethodHandles.lookup());
            MethodType mmsg = MethodType.methodType(int.class, int.class, boolean.class, packets, int.class, int.class);
            MethodType erased = MethodType.methodType(int.class, int.class, boolean.class, Object[].class, int.class,
                int.class);
            sendmmsg0 = nativeLookup.findStatic(nativeClass, "sendmmsg0", mmsg).asType(erased);
            recvmmsg0 = nativeLookup.findStatic(nativeClass, "recvmmsg0", mmsg).asType(erased);
            recvmsg0 = nativeLookup.findStatic(nativeClass, "recvmsg0",
                    MethodType.methodType(int.class, int.class, boolean.class, packetClass))
                .asType(MethodType.methodType(int.class, int.class, boolean.class, Object.class));

            // An entry is an inner class: its constructor takes the enclosing array, whose state it
            // never touches on the paths used here (only newDatagramPacket, not called, reads it).
            Constructor<?> arrayConstructor = arrayClass.getDeclaredConstructor();
            arrayConstructor.setAccessible(true);
            Object enclosing = arrayConstructor.newInstance();
            MethodHandles.Lookup packetLookup = MethodHandles.privateLookupIn(packetClass, MethodHandles.lookup());
            newPacket = MethodHandles.insertArguments(
                    packetLookup.findConstructor(packetClass, MethodType.methodType(void.class, arrayClass)), 0, enclosing)
                .asType(MethodType.methodType(Object.class));
            fields[0] = setter(packetLookup, packetClass, "memoryAddress", long.class);
            fields[1] = setter(packetLookup, packetClass, "count", int.class);
            fields[2] = getter(packetLookup, packetClass, "count", int.class);
            fields[3] = getter(packetLookup, packetClass, "senderAddr", byte[].class);
            fields[4] = getter(packetLookup, packetClass, "senderAddrLen", int.class);
            fields[5] = getter(packetLookup, packetClass, "senderPort", int.class);
            fields[6] = getter(packetLookup, packetClass, "recipientAddr", byte[].class);
            fields[7] = setter(packetLookup, packetClass, "recipientAddrLen", int.class);
            fields[8] = setter(packetLookup, packetClass, "recipientScopeId", int.class);
            fields[9] = setter(packetLookup, packetClass, "recipientPort", int.class);
            fields[10] = setter(packetLookup, packetClass, "segmentSize", int.class);
            fields[11] = getter(packetLookup, packetClass, "segmentSize", int.class);
        } catch (Throwable t) { // any linkage problem means: use the public calls
            if (t instanceof VirtualMachineError e) {
                throw e;
            }
            cause = t;
        }
        boolean ok = cause == null;
        DATAGRAMS_AVAILABLE = ok;
        DATAGRAMS_UNAVAILABILITY_CAUSE = cause;
        SENDMMSG0 = ok ? sendmmsg0 : null;
        RECVMMSG0 = ok ? recvmmsg0 : null;
        RECVMSG0 = ok ? recvmsg0 : null;
        NEW_PACKET = ok ? newPacket : null;
        PACKET_CLASS = ok ? packetClass : null;
        SET_MEMORY_ADDRESS = ok ? fields[0] : null;
        SET_COUNT = ok ? fields[1] : null;
        GET_COUNT = ok ? fields[2] : null;
        GET_SENDER_ADDR = ok ? fields[3] : null;
        GET_SENDER_ADDR_LEN = ok ? fields[4] : null;
        GET_SENDER_PORT = ok ? fields[5] : null;
        GET_RECIPIENT_ADDR = ok ? fields[6] : null;
        SET_RECIPIENT_ADDR_LEN = ok ? fields[7] : null;
        SET_RECIPIENT_SCOPE_ID = ok ? fields[8] : null;
        SET_RECIPIENT_PORT = ok ? fields[9] : null;
        SET_SEGMENT_SIZE = ok ? fields[10] : null;
        GET_SEGMENT_SIZE = ok ? fields[11] : null;

        MethodHandle sendTo = null;
        try {
            Class<?> socketClass = io.netty.channel.unix.Socket.class;
            sendTo = MethodHandles.privateLookupIn(socketClass, MethodHandles.lookup()).findStatic(socketClass,
                "sendToAddress", MethodType.methodType(int.class, int.class, boolean.class, long.class, int.class,
                    int.class, byte[].class, int.class, int.class, int.class));
        } catch (Throwable t) { // another Netty version: sendmmsg(2) for every flush
            if (t instanceof VirtualMachineError e) {
                throw e;
            }
        }
        SEND_TO_ADDRESS = sendTo;
        SEND_TO_AVAILABLE = sendTo != null;
    }

    private EpollInternals() {
    }

    private static MethodHandle getter(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type)
        throws ReflectiveOperationException {
        return lookup.findGetter(owner, name, type).asType(MethodType.methodType(type, Object.class));
    }

    private static MethodHandle setter(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type)
        throws ReflectiveOperationException {
        return lookup.findSetter(owner, name, type).asType(MethodType.methodType(void.class, Object.class, type));
    }

    /**
     * A new event array for {@code io.netty.channel.epoll.Native.epollWait} (its constructor is
     * package-private).
     *
     * @throws UdpTransportException the constructor could not be reached
     */
    static EpollEventArray newEpollEventArray(int length) {
        try {
            Constructor<EpollEventArray> c = EpollEventArray.class.getDeclaredConstructor(int.class);
            c.setAccessible(true);
            return c.newInstance(length);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UdpTransportException("cannot create Netty's EpollEventArray (checked against Netty 4.1.118.Final): "
                + e, e);
        }
    }

    /** An array of {@code n} new datagram entries, of the entry type the natives take. */
    static Object[] newPackets(int n) {
        Object[] packets = (Object[]) Array.newInstance(PACKET_CLASS, n);
        try {
            for (int i = 0; i < n; i++) {
                packets[i] = (Object) NEW_PACKET.invokeExact();
            }
        } catch (Throwable t) {
            throw new IllegalStateException("cannot create a NativeDatagramPacket", t);
        }
        return packets;
    }

    /** sendmmsg(2) of {@code len} entries from {@code offset}: the number of messages sent, or -errno. */
    static int sendmmsg(int fd, boolean ipv6, Object[] packets, int offset, int len) {
        try {
            return (int) SENDMMSG0.invokeExact(fd, ipv6, packets, offset, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * sendto(2) of the bytes [{@code pos}, {@code limit}) at {@code memoryAddress} to {@code address}
     * (16 bytes; an IPv4 destination IPv4-mapped, bytes 12..15 taken on an IPv4 socket):{@code port}.
     * One message without a control message, so a UDP GSO run leaves this way only when the socket's
     * UDP_SEGMENT option has the run's segment size. The kernel's path is shorter than sendmmsg(2)'s
     * for one message (no message header or iovec to copy in), and the native reads two JNI values
     * where Netty's {@code sendmmsg0} reads ten per entry.
     *
     * @return the bytes sent, or -errno
     */
    static int sendTo(int fd, boolean ipv6, long memoryAddress, int pos, int limit, byte[] address, int scopeId,
                      int port) {
        try {
            return (int) SEND_TO_ADDRESS.invokeExact(fd, ipv6, memoryAddress, pos, limit, address, scopeId, port, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** recvmmsg(2) into {@code len} entries from {@code offset}: the number of datagrams read, or -errno. */
    static int recvmmsg(int fd, boolean ipv6, Object[] packets, int offset, int len) {
        try {
            return (int) RECVMMSG0.invokeExact(fd, ipv6, packets, offset, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * recvmsg(2) of one datagram into {@code packet}: the bytes read, or -errno. One system call,
     * where Netty's {@code recvmmsg0} makes two (it asks getsockopt(IP_RECVORIGDSTADDR) first, on
     * every call); it also reports a UDP GRO run's segment size ({@link #segmentSize}).
     */
    static int recvmsg(int fd, boolean ipv6, Object packet) {
        try {
            return (int) RECVMSG0.invokeExact(fd, ipv6, packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * After a {@link #recvmsg}: the size of each datagram of the coalesced run read (the kernel's
     * UDP_GRO control message; the last may be shorter), or 0 when one datagram was read.
     */
    static int segmentSize(Object packet) {
        try {
            return (int) GET_SEGMENT_SIZE.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Points an entry at {@code iovecCount} iovecs from {@code iovecAddress}. */
    static void iovecs(Object packet, long iovecAddress, int iovecCount) {
        try {
            SET_MEMORY_ADDRESS.invokeExact(packet, iovecAddress);
            SET_COUNT.invokeExact(packet, iovecCount);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Resets an entry's iovec count, which a read overwrote with the bytes received. */
    static void iovecCount(Object packet, int iovecCount) {
        try {
            SET_COUNT.invokeExact(packet, iovecCount);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** After a read: the datagram's length in bytes. */
    static int receivedLength(Object packet) {
        try {
            return (int) GET_COUNT.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The entry's sender address array (16 bytes, written in place by every read: the 4 IPv4 bytes
     * first for an IPv4 sender, see {@link #senderAddressLength}). The array is final: fetch it once.
     */
    static byte[] senderAddress(Object packet) {
        try {
            return (byte[]) GET_SENDER_ADDR.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** After a read: 4 for an IPv4 sender (also one mapped into IPv6), 16 for an IPv6 one. */
    static int senderAddressLength(Object packet) {
        try {
            return (int) GET_SENDER_ADDR_LEN.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** After a read: the sender's UDP port. */
    static int senderPort(Object packet) {
        try {
            return (int) GET_SENDER_PORT.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The entry's recipient address array (16 bytes; an IPv4 recipient IPv4-mapped, as the C code
     * takes bytes 12..15 for an IPv4 socket). The array is final: fetch it once and fill it per send.
     */
    static byte[] recipientAddress(Object packet) {
        try {
            return (byte[]) GET_RECIPIENT_ADDR.invokeExact(packet);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Sets the recipient of an entry whose address array was filled, and its UDP GSO segment size
     * (0: one datagram).
     */
    static void recipient(Object packet, int scopeId, int port, int segmentSize) {
        try {
            SET_RECIPIENT_ADDR_LEN.invokeExact(packet, 16);
            SET_RECIPIENT_SCOPE_ID.invokeExact(packet, scopeId);
            SET_RECIPIENT_PORT.invokeExact(packet, port);
            SET_SEGMENT_SIZE.invokeExact(packet, segmentSize);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
