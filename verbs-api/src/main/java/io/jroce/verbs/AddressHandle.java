package io.jroce.verbs;

/** An address handle (ibv_ah): where a UD send goes. Created by {@link ProtectionDomain#createAddressHandle}. */
public interface AddressHandle extends AutoCloseable {
    /** The address vector it was created with (a copy). */
    AddressVector addressVector();

    ProtectionDomain protectionDomain();

    /** Destroys the handle (ibv_destroy_ah). */
    @Override
    void close();
}
