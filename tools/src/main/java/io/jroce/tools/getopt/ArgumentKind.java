package io.jroce.tools.getopt;

/** Whether an option takes an argument: struct option's has_arg. */
public enum ArgumentKind {
    /** no_argument: {@code -e}, {@code --events}. */
    NONE,
    /** required_argument: {@code -s 1}, {@code -s1}, {@code --size 1}, {@code --size=1}. */
    REQUIRED,
    /** optional_argument: only attached, {@code -s1} or {@code --size=1}; absent otherwise. */
    OPTIONAL
}
