package io.jroce.verbs;

/**
 * Argument checks shared by the API's value types and its implementations, so that a null or
 * malformed argument is reported as the API's typed exception naming the argument, never as a
 * bare NullPointerException from somewhere inside.
 */
public final class Arguments {
    private Arguments() {
    }

    /** {@code value}, or an {@link InvalidAttributeException} saying that {@code name} is null. */
    public static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidAttributeException(name + " is null");
        }
        return value;
    }

    /** Checks that the first {@code count} entries of {@code entries} exist (an SGE list, say). */
    public static <T> T[] noNullIn(T[] entries, int count, String name) {
        notNull(entries, name);
        for (int i = 0; i < count; i++) {
            if (entries[i] == null) {
                throw new InvalidAttributeException(name + "[" + i + "] is null");
            }
        }
        return entries;
    }
}
