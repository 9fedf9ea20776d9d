package io.clockagent.stacks.console;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The commands a stack service takes on stdin from the test or benchmark that runs it, one per line, each answered on
 * stdout with a line that starts with its name:
 * <ul>
 *   <li>{@code stats}: {@code stats KEY=VALUE ...}, the service's own counts;</li>
 *   <li>{@code probe}: {@code probe app read=R direct=D library read=R direct=D}, {@link ClockCost} of a read written
 *       in the service's package and of one in a package of its framework.</li>
 * </ul>
 * The end of stdin stops the service: the JVM exits with status 0, its shutdown hooks run.
 */
public final class StackConsole {

    private StackConsole() {
    }

    /**
     * Serves the commands on the calling thread until stdin ends, then exits the JVM.
     *
     * @param stats the service's counts, as {@code KEY=VALUE} pairs separated by spaces
     * @param appClock a {@code System.currentTimeMillis()} read written in the service's own package
     * @param libraryClock the same, written in a package of the service's framework
     */
    public static void serve(Supplier<String> stats, LongSupplier appClock, LongSupplier libraryClock)
            throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = commands.readLine(); command != null; command = commands.readLine()) {
            switch (command.trim()) {
                case "stats":
                    System.out.println("stats " + stats.get());
                    break;
                case "probe":
                    List<String> costs = ClockCost.measureEach(List.of(appClock, libraryClock));
                    System.out.println("probe app " + costs.get(0) + " library " + costs.get(1));
                    break;
                default:
                    System.out.println("unknown command '" + command + "'; valid: stats, probe");
                    break;
            }
        }
        System.exit(0);
    }
}
