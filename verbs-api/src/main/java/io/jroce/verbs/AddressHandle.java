package io.jroce.verbs;

/** An address handle (ibv_ah): where a UD send goes. Created by {@link ProtectionDomain#createAddressHandle}. */
public interface AddressHandle extends AutoCloseable {
    /**
     * The address vector it was created with.
     *
     * @return a copy
     */
    AddressVector addressVector();

    /**
     * The protection domain it was created in.
     *
     * @return the protection domain
     */
    ProtectionDomain protectionDomain();

    /** Destroys the handle (ibv_destroy_ah). */
    @Override
    void close();
}
