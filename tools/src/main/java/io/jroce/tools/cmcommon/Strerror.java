package io.jroce.tools.cmcommon;

import io.jroce.verbs.InvalidAttributeException;
import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.cm.AddressResolutionException;
import io.jroce.verbs.cm.ConnectionRejectedException;
import io.jroce.verbs.cm.ConnectionTimeoutException;
import io.jroce.verbs.cm.RdmaCmException;

/**
 * What perror prints after a librdmacm or libibverbs call that failed where jroce threw: glibc's
 * strerror of the errno the C library would have set for the same outcome ({@code ucma_complete}:
 * ECONNREFUSED for a REJ, ETIMEDOUT for UNREACHABLE).
 */
public final class Strerror {
    private Strerror() {
    }

    /**
     * {@code perror(call)}: "call: text".
     *
     * @param call the C call's name
     * @param e what jroce threw
     * @return the line perror prints
     */
    public static String perror(String call, RuntimeException e) {
        return call + ": " + of(e);
    }

    /**
     * glibc's text of the errno for {@code e}.
     *
     * @param e what jroce threw
     * @return the text
     */
    public static String of(RuntimeException e) {
        if (e instanceof ConnectionRejectedException) {
            return "Connection refused"; // ECONNREFUSED
        }
        if (e instanceof ConnectionTimeoutException) {
            return "Connection timed out"; // ETIMEDOUT
        }
        if (e instanceof AddressResolutionException) {
            return "Cannot assign requested address"; // EADDRNOTAVAIL: no device owns the address
        }
        if (e instanceof RdmaCmException) {
            return "Connection reset by peer"; // ECONNRESET: CONNECT_ERROR, or the peer disconnected
        }
        if (e instanceof QueueFullException || e instanceof ResourceLimitException) {
            return "Cannot allocate memory"; // ENOMEM
        }
        if (e instanceof InvalidAttributeException) {
            return "Invalid argument"; // EINVAL
        }
        return "Invalid argument"; // EINVAL: a call in the wrong state
    }
}
