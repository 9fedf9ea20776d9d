package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.ClockMethod;
import io.clockagent.agent.internal.classfile.ClockMethods;
import io.clockagent.agent.internal.classfile.LibraryClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What became of the classes of the clock methods in force, as the report and the MBean list them: retired (uses of
 * the method were redirected, and the class never loaded, so neither did the thread it starts), or loaded after all,
 * for which class. A class whose method no rewritten class used, and that never loaded, is neither: the service does
 * not carry it, or has not reached it. Immutable.
 */
public final class ClockClasses {

    /** For a filter that redirects no clock method. */
    public static final ClockClasses NONE = new ClockClasses(List.of(), Map.of(), 0);

    private final List<String> retired;
    private final Map<String, String> loaded;
    private final int libraryClocksRetired;

    private ClockClasses(List<String> retired, Map<String, String> loaded, int libraryClocksRetired) {
        this.retired = List.copyOf(retired);
        this.loaded = Map.copyOf(loaded);
        this.libraryClocksRetired = libraryClocksRetired;
    }

    /**
     * @param redirected bit {@code i} set where uses of the {@code i}-th of the selection's clock methods were
     *     redirected
     * @param loadedFor by the same index, the class each method's class loaded for, or null where it did not load
     */
    public static ClockClasses of(PackageSelection packages, long redirected, String[] loadedFor) {
        return of(packages.clockMethods(), redirected, loadedFor);
    }

    static ClockClasses of(ClockMethods clocks, long redirected, String[] loadedFor) {
        List<String> retired = new ArrayList<>();
        Map<String, String> loaded = new LinkedHashMap<>();
        int libraryClocksRetired = 0;
        List<ClockMethod> methods = clocks.methods();
        for (int i = 0; i < methods.size() && i < ClockClassLoads.MOST_WATCHED; i++) {
            String name = describe(methods.get(i));
            if (i < loadedFor.length && loadedFor[i] != null) {
                loaded.put(name, loadedFor[i]);
            } else if ((redirected & 1L << i) != 0) {
                retired.add(name);
                libraryClocksRetired += LibraryClock.ownedBy(methods.get(i).owner()) == null ? 0 : 1;
            }
        }
        return new ClockClasses(retired, loaded, libraryClocksRetired);
    }

    /** {@code cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System Clock')}, or just the class. */
    private static String describe(ClockMethod method) {
        LibraryClock library = LibraryClock.ownedBy(method.owner());
        return method.owner().replace('/', '.') + (library == null ? "" : library.describe());
    }

    /** The clock classes retired, each with what it is. */
    public List<String> retired() {
        return retired;
    }

    /**
     * How many of the retired are library clocks, each a thread of its own that never started; not the {@code clocks}
     * option's, whose threads, if they have any, the agent does not know.
     */
    public int libraryClocksRetired() {
        return libraryClocksRetired;
    }

    /** The clock classes that loaded after all, each with what it is, to the class it loaded for. */
    public Map<String, String> loaded() {
        return loaded;
    }
}
