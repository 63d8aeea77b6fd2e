package io.jroce.tools;

import io.jroce.tools.cmatose.UcmatoseCommand;
import io.jroce.tools.cmtime.CmtimeCommand;
import io.jroce.tools.demo.DemoCommand;
import io.jroce.tools.devinfo.DevinfoCommand;
import io.jroce.tools.explain.ExplainCommand;
import io.jroce.tools.lesson.LessonCommand;
import io.jroce.tools.mckey.MckeyCommand;
import io.jroce.tools.pingpong.PingpongCommand;
import io.jroce.tools.rdmaep.RdmaClientCommand;
import io.jroce.tools.rdmaep.RdmaServerCommand;
import io.jroce.tools.rping.RpingCommand;
import io.jroce.tools.udaddy.UdaddyCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every command {@code jroce} knows, in the order {@code jroce help} lists them. */
public final class Commands {
    private static final List<Command> ALL = build();

    private Commands() {
    }

    private static List<Command> build() {
        List<Command> all = new ArrayList<>(List.of(new DemoCommand(), new DevinfoCommand()));
        all.addAll(PingpongCommand.all());
        all.addAll(io.jroce.tools.perftest.PerftestCommand.all());
        all.add(new RpingCommand());
        all.add(new UcmatoseCommand());
        all.add(new RdmaServerCommand());
        all.add(new RdmaClientCommand());
        all.add(new UdaddyCommand());
        all.add(new CmtimeCommand());
        all.add(new MckeyCommand());
        all.add(new ExplainCommand());
        all.add(new LessonCommand());
        return List.copyOf(all);
    }

    /**
     * Every command, in help order.
     *
     * @return the commands
     */
    public static List<Command> all() {
        return ALL;
    }

    /**
     * The command of a name.
     *
     * @param name the word that selects it
     * @return the command, or empty when none has that name
     */
    public static Optional<Command> find(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
