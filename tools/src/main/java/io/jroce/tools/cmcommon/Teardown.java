package io.jroce.tools.cmcommon;

import io.jroce.verbs.VerbsException;

/** The twins' teardown, which closes each resource even when an earlier one failed. */
public final class Teardown {
    private Teardown() {
    }

    /**
     * Closes {@code c} (nothing for null); a verbs error is ignored, as the C programs ignore their
     * destroys' statuses once the run's outcome is decided.
     *
     * @param c the resource, or null
     */
    public static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (VerbsException e) {
            // the run's outcome is decided already
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
