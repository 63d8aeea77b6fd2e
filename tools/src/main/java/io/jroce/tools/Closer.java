package io.jroce.tools;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what was registered, last registered first, as nested try-with-resources would: for an
 * object that owns several verbs resources and must release those it already holds when creating
 * the next one fails. The first failure is thrown, later ones are added to it as suppressed.
 */
public final class Closer implements AutoCloseable {
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /**
     * Registers {@code resource} and returns it.
     *
     * @param <T> the resource's type
     * @param resource what to close with this closer
     * @return {@code resource}
     */
    public <T extends AutoCloseable> T register(T resource) {
        resources.push(resource);
        return resource;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (failure == null) {
                    failure = r;
                } else {
                    failure.addSuppressed(r);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
