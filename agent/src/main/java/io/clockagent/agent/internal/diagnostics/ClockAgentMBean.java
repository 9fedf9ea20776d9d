package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.caching.CachingDecision;
import io.clockagent.agent.internal.caching.SavedCpu;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.ClassFilter;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanConstructorInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;
import javax.management.ReflectionException;

/**
 * The agent as seen through JMX, as {@value #OBJECT_NAME}: read-only attributes that are plain numbers and strings
 * with stable names, so that Prometheus' jmx_exporter and OpenTelemetry's JMX metrics can scrape them.
 *
 * <p>What is registered is a {@link Proxy} defined in the platform class loader, because an MBean server hands out
 * the class loader of any registered MBean ({@code getClassLoaderFor}): the agent's own loader would give
 * application code a way to its internals. Every getter is safe from any thread.
 */
final class ClockAgentMBean implements InvocationHandler {

    static final String OBJECT_NAME = "io.clockagent:type=ClockAgent";

    private final AgentOptions options;
    private final RewriteCounters counters;
    private final ClassFilter filter;
    /** Null in a dry run. */
    private final Ticker ticker;
    private final String clocksource;
    private Map<String, ReadOnlyAttribute> attributes;
    private MBeanInfo info;
    private volatile double directCallNanos = Double.NaN;

    ClockAgentMBean(AgentOptions options, RewriteCounters counters, ClassFilter filter, Ticker ticker,
            String clocksource) {
        this.options = options;
        this.counters = counters;
        this.filter = filter;
        this.ticker = ticker;
        this.clocksource = clocksource;
    }

    /** Builds the MBean; called on the registration thread, never at startup, as it spins up lambdas. */
    DynamicMBean asDynamicMBean() {
        attributes = new LinkedHashMap<>();
        add("Version", String.class, "clock-agent's version", AgentVersion::read);
        add("Options", String.class, "the options in force, as the banner shows them", options::describe);
        add("TickNanos", long.class, "the tick period", options::tickNanos);
        add("WaitStrategy", String.class, "park or spin", () -> options.waitStrategy().optionValue());
        add("Monotonic", boolean.class, "whether the cached clock never goes backwards", options::monotonic);
        add("DryRun", boolean.class, "whether call sites are only counted, not rewritten", options::dryRun);
        add("Clocksource", String.class, "the kernel clocksource behind the direct clock", () -> clocksource);
        add("ClassesScanned", long.class, "classes in scope checked for call sites",
                () -> counters.classesScanned() + filter.classesScannedNatively());
        add("NativeClassFilter", boolean.class, "whether the native class filter (the C hook) serves",
                filter::isNative);
        add("ClassFilter", String.class, "which class filter serves, and why not the native one", filter::describe);
        add("ClassesScannedNatively", long.class, "of those, the classes the native class filter checked",
                filter::classesScannedNatively);
        add("ClassesRewritten", long.class, "classes whose call sites were rewritten",
                () -> counters.classesRewritten() + filter.classesRewrittenNatively());
        add("ClassesRewrittenNatively", long.class, "of those, the classes the native class filter rewrote",
                filter::classesRewrittenNatively);
        add("ClassesFailed", long.class, "classes left unchanged because they could not be read",
                counters::classesFailed);
        add("ClockClassesRetired", String[].class, "classes of the library clocks (and clocks=) whose uses were"
                + " redirected and that never loaded, so that the thread each starts never ran",
                () -> filter.clockClasses().retired().toArray(new String[0]));
        add("LibraryClockThreadsNeverStarted", int.class, "of those, the library clocks (mybatis-plus, Hutool,"
                + " Sentinel, Dubbo, dynamic-tp), each a thread that never started",
                () -> filter.clockClasses().libraryClocksRetired());
        add("ClockClassesLoaded", String[].class, "classes of those clocks that loaded after all, each with the class"
                + " it loaded for: the thread each starts runs beside the agent's", this::clockClassesLoaded);
        if (counters.countsSites()) {
            add("CallSites", long.class, "invokestatic call sites rewritten", counters::callSites);
            add("MethodReferences", long.class, "System::currentTimeMillis method references rewritten",
                    counters::methodReferences);
        }
        add("Ticks", long.class, "values published by the ticker", () -> ticker == null ? 0L : ticker.ticks());
        add("LateTicks", long.class, "ticks published a tick period or more after their boundary",
                () -> ticker == null ? 0L : ticker.lateTicks());
        add("MaxLagMicros", long.class, "the longest time from a boundary to its publication",
                () -> ticker == null ? 0L : ticker.maxLagNanos() / 1_000L);
        add("IdlePeriods", long.class, "times the ticker parked because nobody read the clock",
                () -> ticker == null ? 0L : ticker.idlePeriods());
        add("Clamps", long.class, "ticks that repeated the last value because the wall clock stepped back",
                () -> ticker == null ? 0L : ticker.clamps());
        add("TickerFailures", long.class, "failures the ticker survived",
                () -> ticker == null ? 0L : ticker.failures());
        add("CachePolicy", String.class, "auto: cache only while it pays at the estimated read rate; always",
                options.cachePolicy()::optionValue);
        add("Caching", boolean.class, "cache=auto: whether caching paid at the last estimate; cache=always: true",
                () -> decision() == null || decision().caching());
        add("ReadsPerSecond", double.class, "cache=auto: the last estimate of the read rate; NaN before the first",
                () -> decision() == null ? Double.NaN : decision().readsPerSecond());
        add("BreakEvenReadsPerSecond", double.class, "cache=auto: the read rate at which caching pays exactly",
                () -> decision() == null ? Double.NaN : decision().breakEvenReadsPerSecond());
        add("DirectCallNanosMeasured", double.class, "cache=auto: a direct call's cost as the ticker measured it",
                () -> decision() == null ? Double.NaN : decision().directCallNanos());
        add("DirectReadNanosInService", double.class, "cache=auto: a direct read's cost to the service, from its"
                + " pairs of windows, cached and direct in turn, in its threads' CPU time a read, the JVM's compilers'"
                + " at their mean rate; NaN before the fifth pair",
                () -> decision() == null ? Double.NaN : decision().directReadPrice().inServiceNanos());
        add("DirectReadNanosInServiceError", double.class, "cache=auto: the standard error of that price",
                () -> decision() == null ? Double.NaN : decision().directReadPrice().standardErrorNanos());
        add("DirectReadPricePairs", long.class, "cache=auto: the pairs of windows the service's price was measured in",
                () -> decision() == null ? 0L : decision().directReadPrice().pairs());
        add("SavedReadNanos", double.class, "cache=auto: what each cached read is taken to save: the price in the"
                + " service once its standard error is at most a fifth of it, else the direct call timed alone",
                () -> decision() == null ? Double.NaN : decision().savedReadNanos());
        add("TickerCpuMillisPerSecond", double.class, "cache=auto: the ticker's CPU time per second while it ticked",
                () -> decision() == null ? Double.NaN : decision().tickerCpuNanosPerSecond() / 1e6);
        add("SavedCpuMillisPerSecond", double.class, "cache=auto: CPU time saved a second over the ticker's last"
                + " interval, net of the ticker's own: the cached reads times what each saves, less the"
                + " ticker's measured CPU; negative where caching cost more", () -> savedCpu() == null ? Double.NaN
                        : savedCpu().savedCpuNanosPerSecond() / 1e6);
        add("SavedCpuMillis", double.class, "cache=auto: CPU time saved so far, net of the ticker's (may fall)",
                () -> savedCpu() == null ? Double.NaN : savedCpu().savedCpuNanos(System.nanoTime()) / 1e6);
        add("ReadCpuSavedMillis", double.class, "cache=auto: CPU time the cached reads saved so far, before the"
                + " ticker's: only grows", () -> savedCpu() == null ? Double.NaN
                        : savedCpu().readCpuSavedNanos(System.nanoTime()) / 1e6);
        add("TickerCpuMillis", double.class, "cache=auto: the ticker thread's CPU time so far: only grows",
                () -> savedCpu() == null ? Double.NaN : savedCpu().tickerCpuNanos(System.nanoTime()) / 1e6);
        add("CacheSwitches", long.class, "cache=auto: how often caching started or stopped",
                () -> decision() == null ? 0L : decision().switches());
        add("CacheTrialStops", long.class, "cache=auto: stops its sampling windows were unsure of, left to the direct"
                + " count to confirm", () -> decision() == null ? 0L : decision().trialStops());
        add("TimerSlackLowered", boolean.class, "whether the ticker's Linux timer slack is 1 ns",
                () -> ticker != null && ticker.timerSlackLowered());
        add("CurrentLagMillis", long.class, "how far the cached value is behind the real clock now; 0 while direct",
                this::currentLagMillis);
        add("DirectCallNanos", double.class, "the measured cost of one direct call on this host",
                this::directCallNanos);
        List<MBeanAttributeInfo> described = new ArrayList<>();
        for (Map.Entry<String, ReadOnlyAttribute> attribute : attributes.entrySet()) {
            described.add(new MBeanAttributeInfo(attribute.getKey(), attribute.getValue().type.getName(),
                    attribute.getValue().description, true, false, attribute.getValue().type == boolean.class));
        }
        info = new MBeanInfo(ClockAgentMBean.class.getName(), "clock-agent: what it rewrote and how its clock keeps up",
                described.toArray(new MBeanAttributeInfo[0]), new MBeanConstructorInfo[0],
                new MBeanOperationInfo[0], new MBeanNotificationInfo[0]);
        return (DynamicMBean) Proxy.newProxyInstance(ClassLoader.getPlatformClassLoader(),
                new Class<?>[] {DynamicMBean.class}, this);
    }

    private void add(String name, Class<?> type, String description, Supplier<Object> value) {
        attributes.put(name, new ReadOnlyAttribute(type, description, value));
    }

    private CachingDecision decision() {
        return ticker == null ? null : ticker.cachingDecision();
    }

    private SavedCpu savedCpu() {
        return decision() == null ? null : decision().savedCpu();
    }

    private String[] clockClassesLoaded() {
        ClockClasses clockClasses = filter.clockClasses();
        List<String> loaded = new ArrayList<>();
        clockClasses.loaded().forEach((clockClass, loadedFor) -> loaded.add(clockClass + " for " + loadedFor));
        return loaded.toArray(new String[0]);
    }

    private long currentLagMillis() {
        CachedClockWriter defined = ticker == null ? null : ticker.clock();
        long cached = defined == null ? 0L : defined.published();
        return cached == 0L ? 0L : Math.max(0L, System.currentTimeMillis() - cached);
    }

    private double directCallNanos() {
        if (Double.isNaN(directCallNanos)) {
            directCallNanos = ClockCost.directCallNanos();
        }
        return directCallNanos;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] arguments) throws Exception {
        switch (method.getName()) {
            case "getMBeanInfo":
                return info;
            case "getAttribute":
                return read((String) arguments[0]);
            case "getAttributes":
                AttributeList values = new AttributeList();
                for (String name : (String[]) arguments[0]) {
                    ReadOnlyAttribute attribute = attributes.get(name);
                    if (attribute != null) {
                        values.add(new Attribute(name, attribute.value.get()));
                    }
                }
                return values;
            case "setAttribute":
                throw new AttributeNotFoundException("every clock-agent attribute is read-only");
            case "setAttributes":
                return new AttributeList();
            case "invoke":
                throw new ReflectionException(new NoSuchMethodException((String) arguments[0]),
                        "clock-agent's MBean has no operations");
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == arguments[0];
            case "toString":
                return OBJECT_NAME;
            default:
                throw new MBeanException(new UnsupportedOperationException(method.getName()));
        }
    }

    private Object read(String name) throws AttributeNotFoundException {
        ReadOnlyAttribute attribute = attributes.get(name);
        if (attribute == null) {
            throw new AttributeNotFoundException("no attribute " + name + " in " + OBJECT_NAME);
        }
        return attribute.value.get();
    }

    /** One attribute: its JMX type, what it means, and how to read it now. */
    private static final class ReadOnlyAttribute {
        final Class<?> type;
        final String description;
        final Supplier<Object> value;

        ReadOnlyAttribute(Class<?> type, String description, Supplier<Object> value) {
            this.type = type;
            this.description = description;
            this.value = value;
        }
    }
}
