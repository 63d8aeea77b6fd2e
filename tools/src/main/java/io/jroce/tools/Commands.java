package io.jroce.tools;

import io.jroce.tools.demo.DemoCommand;
import io.jroce.tools.devinfo.DevinfoCommand;
import io.jroce.tools.pingpong.RcPingpongCommand;
import java.util.List;
import java.util.Optional;

/** Every command {@code jroce} knows, in the order {@code jroce help} lists them. */
public final class Commands {
    private static final List<Command> ALL = List.of(new DemoCommand(), new DevinfoCommand(), new RcPingpongCommand());

    private Commands() {
    }

    public static List<Command> all() {
        return ALL;
    }

    public static Optional<Command> find(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
