package io.jroce.rnic.core;

/** Where a UD send goes: the address handle's resolved source and destination GIDs and UDP port. */
interface UdDestination {
    byte[] sourceGid();

    byte[] destGid();

    int udpPort();
}
