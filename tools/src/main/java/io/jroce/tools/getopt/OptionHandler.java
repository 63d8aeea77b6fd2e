package io.jroce.tools.getopt;

import io.jroce.tools.UsageException;

/** What an option does when it is given. */
@FunctionalInterface
public interface OptionHandler {
    /**
     * @param spelling the option as errors name it: {@code -s}, or {@code --size} (the full long
     *                 name, also when a prefix of it was given)
     * @param value    its argument; null for a flag, or an optional argument that was not given
     */
    void accept(String spelling, String value) throws UsageException;
}
