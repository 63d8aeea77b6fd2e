package io.jroce.verbs;

/** Transport service types (IBTA Vol. 1 section 9.8): Reliable Connected, Unreliable Connected, Unreliable Datagram. */
public enum QpType {
    RC, UC, UD
}
