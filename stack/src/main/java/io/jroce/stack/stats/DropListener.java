package io.jroce.stack.stats;

/** Hears of packets or messages a device discarded, by the counter that counted them. */
@FunctionalInterface
public interface DropListener {
    /**
     * {@code count} more discarded for {@code reason} (a counter whose {@link Counter#isDrop} is
     * true). Called on the thread that counted them, usually the device's I/O thread: return
     * quickly, allocate nothing on a path a flood of bad packets takes.
     *
     * @param reason the drop counter
     * @param count how many more it counted
     */
    void dropped(Counter reason, long count);
}
