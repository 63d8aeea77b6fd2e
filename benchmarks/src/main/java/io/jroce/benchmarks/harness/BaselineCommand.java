package io.jroce.benchmarks.harness;

import io.jroce.stack.udp.UdpTransportException;
import io.jroce.tools.Command;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.ExecutionException;

/** {@code jroce udp_bw} and {@code jroce udp_lat}: see {@link BaselineOptions#usage}. */
final class BaselineCommand implements Command {
    private final boolean latency;

    BaselineCommand(boolean latency) {
        this.latency = latency;
    }

    @Override
    public String name() {
        return latency ? "udp_lat" : "udp_bw";
    }

    @Override
    public String summary() {
        return latency
            ? "benchmark baseline: raw-UDP ping-pong through jroce's socket layer, reported as send_lat"
            : "benchmark baseline: raw-UDP stream of RC WRITE/READ-sized datagrams, reported as write_bw";
    }

    @Override
    public String usage() {
        return BaselineOptions.usage(latency);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, InterruptedException {
        BaselineOptions options = BaselineOptions.parse(latency, args);
        try {
            new BaselineRun(options, out, err).run();
            return ExitStatus.OK;
        } catch (IOException | UdpTransportException e) {
            out.flush();
            err.println("jroce " + name() + ": error: " + e.getMessage());
            return ExitStatus.FAILED;
        } catch (ExecutionException e) {
            out.flush();
            err.println("jroce " + name() + ": error: " + e.getCause());
            return ExitStatus.FAILED;
        }
    }
}
