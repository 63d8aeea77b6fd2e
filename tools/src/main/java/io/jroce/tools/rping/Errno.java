package io.jroce.tools.rping;

import io.jroce.verbs.QueueFullException;
import io.jroce.verbs.ResourceLimitException;
import io.jroce.verbs.VerbsException;

/**
 * The errno a verbs call of libibverbs returns where jroce throws: rping prints the number in
 * "post send error %d" and the like.
 */
final class Errno {
    static final int ENOMEM = 12;
    static final int EINVAL = 22;

    private Errno() {
    }

    static int of(VerbsException e) {
        if (e instanceof QueueFullException || e instanceof ResourceLimitException) {
            return ENOMEM; // a full work queue: ibv_post_send's ENOMEM
        }
        return EINVAL; // a bad work request or a QP in the wrong state
    }
}
