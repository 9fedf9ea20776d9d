package io.clockagent.agent.internal.classfile;

import java.util.List;

/**
 * A JDK method whose uses the rewriter sends to a static method of the cached clock class with the same descriptor,
 * and which one: by default, or where the class lies in a package of the {@code cachedInstants} option. Immutable.
 *
 * <p>{@code System.currentTimeMillis()} and the factories of {@code java.time}'s system clock and instant source
 * change nothing but the cost (a clock of the cache's answers {@code millis()} from it, and {@code instant()} from
 * the real clock), so they are redirected everywhere in scope. The rest read an instant, at the microseconds the real clock gives on Linux,
 * and from the cache at the tick's resolution: only where the option says the service accepts that.
 *
 * <p>The list is the native rewriter's too: the build writes it into {@code class_file_format.h}.
 */
public final class RedirectedMethod {

    /** Every redirected method; in the order the rewriters try them, which decides nothing, as no two are alike. */
    public static final List<RedirectedMethod> ALL = List.of(
            everywhere("java/lang/System", "currentTimeMillis", "()J", "currentTimeMillis",
                    "currentTimeMillis"),
            everywhere("java/time/Clock", "systemUTC", "()Ljava/time/Clock;", "systemUTC",
                    "cachedInstantsSystemUTC"),
            everywhere("java/time/Clock", "systemDefaultZone", "()Ljava/time/Clock;", "systemDefaultZone",
                    "cachedInstantsSystemDefaultZone"),
            everywhere("java/time/Clock", "system", "(Ljava/time/ZoneId;)Ljava/time/Clock;", "system",
                    "cachedInstantsSystem"),
            // An interface's static method (Java 17+), used through an InterfaceMethodref.
            everywhere("java/time/InstantSource", "system", "()Ljava/time/InstantSource;", "instantSourceSystem",
                    "cachedInstantsInstantSourceSystem"),
            cachedInstantsOnly("java/time/Instant", "now", "()Ljava/time/Instant;", "cachedInstantNow"),
            nowOf("LocalDateTime"),
            zonedNowOf("LocalDateTime"),
            nowOf("ZonedDateTime"),
            zonedNowOf("ZonedDateTime"),
            nowOf("OffsetDateTime"),
            zonedNowOf("OffsetDateTime"),
            nowOf("LocalTime"),
            zonedNowOf("LocalTime"),
            nowOf("OffsetTime"),
            zonedNowOf("OffsetTime"),
            nowOf("LocalDate"),
            zonedNowOf("LocalDate"));

    private final String owner;
    private final String name;
    private final String descriptor;
    /** Null where the method is redirected only under {@code cachedInstants}. */
    private final String target;
    private final String cachedInstantsTarget;

    private RedirectedMethod(String owner, String name, String descriptor, String target,
            String cachedInstantsTarget) {
        this.owner = owner;
        this.name = name;
        this.descriptor = descriptor;
        this.target = target;
        this.cachedInstantsTarget = cachedInstantsTarget;
    }

    private static RedirectedMethod everywhere(String owner, String name, String descriptor, String target,
            String cachedInstantsTarget) {
        return new RedirectedMethod(owner, name, descriptor, target, cachedInstantsTarget);
    }

    private static RedirectedMethod cachedInstantsOnly(String owner, String name, String descriptor,
            String cachedInstantsTarget) {
        return new RedirectedMethod(owner, name, descriptor, null, cachedInstantsTarget);
    }

    /** {@code java.time.LocalDateTime.now()} and the like, to {@code cachedLocalDateTimeNow()}. */
    private static RedirectedMethod nowOf(String type) {
        return cachedInstantsOnly("java/time/" + type, "now", "()Ljava/time/" + type + ";", "cached" + type + "Now");
    }

    /** {@code java.time.LocalDateTime.now(ZoneId)} and the like, to {@code cachedLocalDateTimeNow(ZoneId)}. */
    private static RedirectedMethod zonedNowOf(String type) {
        return cachedInstantsOnly("java/time/" + type, "now", "(Ljava/time/ZoneId;)Ljava/time/" + type + ";",
                "cached" + type + "Now");
    }

    /** The class that declares it, in internal form. */
    public String owner() {
        return owner;
    }

    public String name() {
        return name;
    }

    public String descriptor() {
        return descriptor;
    }

    /** The cached clock's method its uses go to, in a class where {@code cachedInstants} applies or not; or null. */
    public String target(boolean cachedInstants) {
        return cachedInstants ? cachedInstantsTarget : target;
    }
}
