package io.jroce.verbs;

/**
 * Argument checks shared by the API's value types and its implementations, so that a null or
 * malformed argument is reported as the API's typed exception naming the argument, never as a
 * bare NullPointerException from somewhere inside.
 */
public final class Arguments {
    private Arguments() {
    }

    /**
     * Checks an argument is not null.
     *
     * @param <T>   the argument's type
     * @param value the argument
     * @param name  its name, for the message
     * @return {@code value}
     * @throws InvalidAttributeException {@code value} is null (the message names {@code name})
     */
    public static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidAttributeException(name + " is null");
        }
        return value;
    }

    /**
     * Checks that an array and its first {@code count} entries exist (an SGE list, say).
     *
     * @param <T>     the entries' type
     * @param entries the array
     * @param count   how many of its entries are used
     * @param name    its name, for the message
     * @return {@code entries}
     * @throws InvalidAttributeException the array or one of its first {@code count} entries is null
     */
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
