package io.jroce.tools.devinfo;

import io.jroce.tools.Command;
import io.jroce.tools.DeviceOpenFailure;
import io.jroce.tools.DeviceOptions;
import io.jroce.tools.ExitStatus;
import io.jroce.tools.UnknownDeviceException;
import io.jroce.tools.UsageException;
import io.jroce.verbs.RdmaDevice;
import io.jroce.verbs.TransportException;
import io.jroce.verbs.VerbsException;
import java.io.PrintStream;
import java.util.List;

/** {@code jroce devinfo}: see {@link DevinfoOptions#USAGE}. */
public final class DevinfoCommand implements Command {
    @Override
    public String name() {
        return "devinfo";
    }

    @Override
    public String summary() {
        return "open a jroce device and print it as ibv_devinfo prints an RDMA device";
    }

    @Override
    public String usage() {
        return DevinfoOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        DevinfoOptions options;
        try {
            options = DevinfoOptions.parse(args);
        } catch (UnknownDeviceException e) {
            err.println(e.getMessage()); // ibv_devinfo's "IB device 'x' wasn't found", then the devices that exist
            return ExitStatus.FAILED;
        }
        int status = ExitStatus.OK;
        for (DeviceOptions d : options.devices()) { // as ibv_devinfo: every device, the status of the worst
            status = Math.max(status, print(d, options, out, err));
        }
        return status;
    }

    private static int print(DeviceOptions d, DevinfoOptions options, PrintStream out, PrintStream err) {
        try (RdmaDevice device = d.open()) {
            out.print(DevinfoPrinter.format(device.name(), device.queryDevice(), device.queryPort(), device.gids(),
                device.counters(), options.verbose(), options.counters()));
            return ExitStatus.OK;
        } catch (TransportException e) {
            DeviceOpenFailure.report("devinfo", e, d.udpPort(), d.binds(), err);
            return ExitStatus.FAILED;
        } catch (VerbsException e) {
            err.println("jroce devinfo: error: " + e);
            return ExitStatus.FAILED;
        }
    }
}
