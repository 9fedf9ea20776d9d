package io.clockagent.agent;

import io.clockagent.agent.internal.diagnostics.Compatibility;
import io.clockagent.agent.internal.diagnostics.Doctor;
import io.clockagent.agent.internal.install.Installer;
import io.clockagent.agent.internal.install.NativeLibraries;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.options.AgentOptionsException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code java -jar clock-agent.jar COMMAND}: attaches the agent to a running JVM or detaches it. Each error is one
 * line on stderr and a non-zero exit status.
 */
public final class Cli {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final String USAGE_TEXT = String.join(System.lineSeparator(),
            "usage: java -jar clock-agent.jar COMMAND",
            "  attach PID [OPTIONS]  load the agent into the running JVM PID (OPTIONS as for -javaagent)",
            "  detach PID            restore the original code in JVM PID and stop its ticker",
            "  doctor                tell whether caching pays on this host (takes a few seconds)",
            "  agentpath             write this platform's libclockagent.so next to the jar, for -agentpath",
            "  --version             print the version, the JDKs tested, the class files read, the native platforms",
            "  help                  print this text");

    private final PrintStream out;
    private final PrintStream err;

    Cli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new Cli(System.out, System.err).run(args));
    }

    int run(String[] args) {
        String command = args.length == 0 ? "help" : args[0];
        switch (command) {
            case "attach":
                if (args.length < 2 || args.length > 3) {
                    return usage("attach takes a PID and, optionally, the options");
                }
                return attach(args[1], args.length == 3 ? args[2] : "");
            case "detach":
                if (args.length != 2) {
                    return usage("detach takes a PID");
                }
                return load(args[1], Installer.DETACH, "detach from");
            case "doctor":
                return doctor();
            case "agentpath":
                return args.length == 1 ? agentPath() : usage("agentpath takes no arguments");
            case "--version":
            case "version":
                return version();
            case "help":
            case "--help":
            case "-h":
                out.println(USAGE_TEXT);
                return OK;
            default:
                return usage("unknown command '" + command + "'; valid commands: attach, detach, doctor, agentpath,"
                        + " --version, help");
        }
    }

    private int version() {
        out.println("clock-agent " + Cli.class.getPackage().getImplementationVersion());
        out.println(Compatibility.testedOn());
        out.println(Compatibility.classFilesRead());
        try {
            List<String> platforms = NativeLibraries.carriedBy(NativeLibraries.jarOf(Cli.class).toPath());
            out.println("native class filter: " + (platforms.isEmpty()
                    ? "none in this jar (its build found no C compiler); the agent filters in Java"
                    : String.join(", ", platforms) + "; the agent filters in Java elsewhere"));
            return OK;
        } catch (IOException | URISyntaxException unreadable) {
            err.println("clock-agent: cannot read the agent jar: " + unreadable);
            return FAILED;
        }
    }

    /** Writes the library beside the jar, where the library looks for the jar: the two need nothing else. */
    private int agentPath() {
        try {
            Path jar = NativeLibraries.jarOf(Cli.class).toPath();
            if (!jar.getFileName().toString().equals(NativeLibraries.AGENT_JAR_NAME)) {
                err.println("clock-agent: the library finds the agent by the name " + NativeLibraries.AGENT_JAR_NAME
                        + " in its folder; rename " + jar.getFileName() + " to that and run this again");
                return FAILED;
            }
            Path library = NativeLibraries.writeForThisPlatform(jar, jar.resolveSibling(NativeLibraries.FILE_NAME));
            out.println("clock-agent: wrote " + library + "; start the service with -agentpath:" + library
                    + "[=OPTIONS] (OPTIONS as for -javaagent)");
            return OK;
        } catch (IOException | URISyntaxException failure) {
            err.println("clock-agent: no library written: " + failure.getMessage());
            return FAILED;
        }
    }

    private int doctor() {
        try {
            new Doctor(out).run();
            return OK;
        } catch (ReflectiveOperationException | InterruptedException | RuntimeException failure) {
            err.println("clock-agent: doctor failed: " + failure);
            return FAILED;
        }
    }

    /**
     * Loads the agent into {@code pid}; with {@code enabled=false} among the options, nothing, successfully: the agent
     * would only say on that JVM's stderr that it is off, and an operator who switches it off in the options that a
     * script attaches with wants that to pass.
     */
    private int attach(String pid, String options) {
        try {
            if (AgentOptions.parse(options).turnedOffBy() != null) {
                out.println("clock-agent: nothing attached to " + pid + ": enabled=false turns the agent off");
                return OK;
            }
        } catch (AgentOptionsException bad) {
            err.println("clock-agent: nothing attached: " + bad.getMessage());
            return USAGE;
        }
        return load(pid, options, "attach to");
    }

    private int load(String pidText, String agentArgument, String action) {
        long pid;
        try {
            pid = Long.parseLong(pidText);
        } catch (NumberFormatException notANumber) {
            return usage("'" + pidText + "' is not a process id; give the numeric PID of a running JVM");
        }
        Optional<String> refusal = TargetJvm.whyNotAttachable(pid);
        if (refusal.isPresent()) {
            err.println("clock-agent: cannot " + action + " " + pid + ": " + refusal.get());
            return FAILED;
        }
        try {
            ByteBuddyAgent.attach(NativeLibraries.jarOf(Cli.class), pidText, agentArgument);
        } catch (RuntimeException | URISyntaxException failure) {
            err.println("clock-agent: cannot " + action + " " + pid + ": " + rootMessage(failure));
            return FAILED;
        }
        out.println("clock-agent: " + (Installer.DETACH.equals(agentArgument) ? "detach" : "attach")
                + " sent to " + pid + "; the agent reports the outcome on that JVM's stderr");
        return OK;
    }

    private int usage(String problem) {
        err.println("clock-agent: " + problem + "; see 'java -jar clock-agent.jar help'");
        return USAGE;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
