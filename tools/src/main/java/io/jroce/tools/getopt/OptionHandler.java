package io.jroce.tools.getopt;

import io.jroce.tools.UsageException;

/** What an option does when it is given. */
@FunctionalInterface
public interface OptionHandler {
    /**
     * Takes the option.
     *
     * @param spelling the option as errors name it: {@code -s}, or {@code --size} (the full long
     *                 name, also when a prefix of it was given)
     * @param value    its argument; null for a flag, or an optional argument that was not given
     * @throws UsageException the argument is not one the option takes
     */
    void accept(String spelling, String value) throws UsageException;
}
