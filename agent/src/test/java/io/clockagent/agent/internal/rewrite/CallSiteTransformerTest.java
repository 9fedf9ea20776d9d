package io.clockagent.agent.internal.rewrite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.caching.CachePolicy;
import io.clockagent.agent.internal.classfile.GeneratedClasses;
import io.clockagent.agent.internal.classfile.RewritingClassLoader;
import io.clockagent.agent.internal.clock.CachedClockWriter;
import io.clockagent.agent.internal.clock.DeferredBootClock;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.clock.Tickers;
import io.clockagent.agent.internal.clock.WaitStrategy;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.log.CapturedLog;
import io.clockagent.agent.internal.options.AgentOptions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CallSiteTransformerTest {


    private static final String FIXTURE = RewritingClassLoader.FIXTURES.replace('.', '/') + "ControlFlow";
    /** Not the system loader: in this test the system loader is the agent's own, which is never rewritten. */
    private static final ClassLoader APPLICATION = new ClassLoader(null) { };

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final byte[] classFile = RewritingClassLoader.originalBytes(FIXTURE.replace('/', '.'));

    private final RewriteCounters counters = new RewriteCounters(true, true);
    private final RecordedSignals signals = new RecordedSignals();
    /** Over the un-renamed clock class; its thread starts only if a test rewrites a class. */
    private final Ticker ticker;

    CallSiteTransformerTest() throws ReflectiveOperationException {
        ticker = Ticker.prepare(Clock.systemUTC(), AgentOptions.DEFAULT_TICK_NANOS, WaitStrategy.PARK, false,
                CachePolicy.ALWAYS);
    }

    @AfterEach
    void stopTicker() {
        ticker.close();
    }

    private CallSiteTransformer transformer(String options) {
        return transformer(options, new CountedDefinitions(log(), null));
    }

    private CallSiteTransformer transformer(String options, DeferredBootClock clock) {
        AgentOptions parsed = AgentOptions.parse(options);
        return new CallSiteTransformer(new RewriteScope(parsed.packages()), RewritingClassLoader.FIXED_CLOCK, log(),
                parsed.dryRun() ? null : clock, parsed.dryRun() ? null : ticker, counters,
                new RewrittenSites(parsed.packages(), counters, log(), true, parsed.dryRun()), signals);
    }

    private AgentLog log() {
        return CapturedLog.into(err);
    }

    /** What the transformer passed on. */
    private static final class RecordedSignals implements ClassLoadSignals {

        private int jmxStarts;
        private int detachRequests;

        @Override
        public void jmxStarting() {
            jmxStarts++;
        }

        @Override
        public void detachRequested() {
            detachRequests++;
        }
    }

    /** Hands over the un-renamed clock class, or fails with {@code failure}; counts how often it was asked. */
    private static final class CountedDefinitions extends DeferredBootClock {

        private final RuntimeException failure;
        private int definitions;
        private int definitionsRequested;
        private String definingThread;

        CountedDefinitions(AgentLog log, RuntimeException failure) {
            super(null, log);
            this.failure = failure;
        }

        @Override
        public void defineSoon() {
            definitionsRequested++;
            super.defineSoon();
        }

        @Override
        protected CachedClockWriter define() throws ReflectiveOperationException {
            definitions++;
            definingThread = Thread.currentThread().getName();
            if (failure != null) {
                throw failure;
            }
            return Tickers.writer();
        }
    }

    private byte[] transform(CallSiteTransformer transformer, ClassLoader loader, String className, byte[] bytes) {
        return transformer.transform(null, loader, className, null, null, bytes);
    }

    @Test
    void rewritesAnIncludedClassAndSaysSoWhenVerbose() {
        CallSiteTransformer transformer = transformer("include=com.acme");

        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));
        assertEquals("clock-agent: rewrote com.acme.Service: 8 call sites, 0 method references",
                err.toString(StandardCharsets.UTF_8).strip());
        assertEquals(1L, counters.classesRewritten());
        assertEquals(8L, counters.callSites());
        assertEquals("com.acme.Service", counters.rewrittenClasses().get(0).className());
        assertTrue(Tickers.isAlive(ticker), "the first rewritten class starts the ticker");
    }

    /** Any loaded class stands for the one being retransformed: the transformer reads only whether there is one. */
    @Test
    void aClassAnotherAgentRetransformsIsRewrittenAgainButCountedAndShownOnce() {
        CallSiteTransformer transformer = transformer("include=com.acme");

        byte[] loaded = transform(transformer, APPLICATION, "com/acme/Service", classFile);
        byte[] retransformed = transformer.transform(null, APPLICATION, "com/acme/Service", Object.class, null,
                classFile);

        assertNotNull(loaded);
        assertArrayEquals(loaded, retransformed, "rewritten again, or the rewrite would be lost");
        assertEquals(1L, counters.classesScanned());
        assertEquals(1L, counters.classesRewritten());
        assertEquals(8L, counters.callSites());
        assertEquals(1, counters.rewrittenClasses().size());
        assertEquals("clock-agent: rewrote com.acme.Service: 8 call sites, 0 method references",
                err.toString(StandardCharsets.UTF_8).strip());
    }

    /**
     * At an attach the agent retransforms the classes loaded before it: each is its first sight of the class, counted
     * once the JVM took the retransformation.
     */
    @Test
    void theAgentsOwnRetransformationOfLoadedClassesCountsThemOnceItTook() {
        CallSiteTransformer transformer = transformer("include=com.acme");

        transformer.retransformLoaded(() -> {
            assertNotNull(transformer.transform(null, APPLICATION, "com/acme/Service", Object.class, null, classFile));
            assertEquals(0L, counters.classesScanned(), "held until the JVM answers");
            transformer.settleRetransformation(true);
        });

        assertEquals(1L, counters.classesScanned());
        assertEquals(1L, counters.classesRewritten());
        assertEquals(8L, counters.callSites());
    }

    /** A batch the JVM refused is retried class by class, which shows the transformer its classes again. */
    @Test
    void aRefusedRetransformationOfTheAgentsOwnCountsNothing() {
        CallSiteTransformer transformer = transformer("include=com.acme");

        transformer.retransformLoaded(() -> {
            assertNotNull(transformer.transform(null, APPLICATION, "com/acme/Service", Object.class, null, classFile));
            transformer.settleRetransformation(false);
            assertNotNull(transformer.transform(null, APPLICATION, "com/acme/Service", Object.class, null, classFile));
            transformer.settleRetransformation(true);
        });

        assertEquals(1L, counters.classesScanned());
        assertEquals(1L, counters.classesRewritten());
        assertEquals(8L, counters.callSites());
    }

    @Test
    void javaTimeReadsOfInstantsLeftDirectAreCountedAndNamedWithTheOptionThatTakesThem() {
        byte[] timeReads = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "TimeReads");
        CallSiteTransformer transformer = transformer("include=com.acme");

        assertNotNull(transform(transformer, APPLICATION, "com/acme/time/Reads", timeReads),
                "its system clock factories are rewritten all the same");

        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
        assertEquals("clock-agent: left com.acme.time.Reads: 9 java.time reads of instants direct, as the cache would"
                + " change their resolution; cachedInstants=com.acme.time takes them", lines.get(1), lines.toString());
        assertEquals(9L, counters.instantReadsLeft());
        assertEquals(1L, counters.classesWithInstantReadsLeft());
    }

    @Test
    void underCachedInstantsNoReadOfAnInstantIsLeft() {
        byte[] timeReads = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "TimeReads");
        CallSiteTransformer transformer = transformer("include=com.acme,cachedInstants=com.acme.time");

        assertNotNull(transform(transformer, APPLICATION, "com/acme/time/Reads", timeReads));

        assertEquals(1L, err.toString(StandardCharsets.UTF_8).lines().count(), err.toString(StandardCharsets.UTF_8));
        assertEquals(0L, counters.instantReadsLeft());
    }

    @Test
    void aClassWhoseOnlyReadsAreInstantsIsCountedThoughNotRewritten() {
        byte[] instantsOnly = GeneratedClasses.callingInstantNow("com/acme/Stamp");
        CallSiteTransformer transformer = transformer("include=com.acme");

        assertNull(transform(transformer, APPLICATION, "com/acme/Stamp", instantsOnly));

        assertEquals("clock-agent: left com.acme.Stamp: 1 java.time reads of instants direct, as the cache would"
                + " change their resolution; cachedInstants=com.acme takes them",
                err.toString(StandardCharsets.UTF_8).strip());
        assertEquals(0L, counters.classesRewritten());
        assertEquals(1L, counters.instantReadsLeft());
    }

    @Test
    void theFirstClassInScopeStartsDefiningTheClockOnAThreadOfItsOwn() throws InterruptedException {
        CountedDefinitions clock = new CountedDefinitions(log(), null);
        CallSiteTransformer transformer = transformer("include=com.acme", clock);
        byte[] withoutClockReads = RewritingClassLoader.originalBytes(RewritingClassLoader.FIXTURES + "NoClockReads");

        assertNull(transform(transformer, APPLICATION, "org/example/Other", classFile));
        assertEquals(0, clock.definitionsRequested, "a class out of scope, though it reads the clock, defines nothing");
        assertNull(clock.ifDefined());

        assertNull(transform(transformer, APPLICATION, "com/acme/Plain", withoutClockReads));
        long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (clock.ifDefined() == null && System.nanoTime() < deadlineNanos) {
            Thread.sleep(1);
        }
        assertNotNull(clock.ifDefined(), "defined in the background after the first class in scope");
        assertEquals("clock-agent-define", clock.definingThread);
        assertFalse(Tickers.isAlive(ticker), "nothing rewritten yet, no ticker");

        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));
        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service2", classFile));
        assertEquals(1, clock.definitions, "defined once");
    }

    @Test
    void aRewrittenClassIsHandedBackOnlyOnceTheClockIsDefined() {
        CountedDefinitions clock = new CountedDefinitions(log(), null);
        CallSiteTransformer transformer = transformer("include=com.acme", clock);

        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));

        assertNotNull(clock.ifDefined(), "a rewritten class is never handed back before the clock exists");
        assertEquals(1, clock.definitions, "the definer thread, arriving second or first, defines it once");
    }

    @Test
    void aClockThatCannotBeDefinedLeavesEveryClassUnchangedAndIsReportedOnce() {
        CountedDefinitions clock = new CountedDefinitions(log(), new IllegalStateException("no java.lang for you"));
        CallSiteTransformer transformer = transformer("include=com.acme", clock);

        assertNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));
        assertNull(transform(transformer, APPLICATION, "com/acme/Service2", classFile));

        assertEquals(List.of("clock-agent: off, the service runs without it: could not define the cached clock: "
                + "java.lang.IllegalStateException: no java.lang for you"),
                err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList()));
        assertEquals(1, clock.definitions, "not tried again for every class");
        assertEquals(0L, counters.classesRewritten());
        assertFalse(Tickers.isAlive(ticker), "no clock, no ticker");
    }

    @Test
    void aDryRunCountsTheSitesButChangesNothing() {
        CallSiteTransformer transformer = transformer("include=com.acme,dryRun=true");

        assertNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));
        assertEquals("clock-agent: would rewrite com.acme.Service: 8 call sites, 0 method references",
                err.toString(StandardCharsets.UTF_8).strip());
        assertEquals(8L, counters.callSites());
        assertFalse(Tickers.isAlive(ticker), "a dry run starts no ticker");
    }

    @Test
    void leavesExcludedClassesAlone() {
        CallSiteTransformer transformer = transformer("include=com.acme,exclude=com.acme.legacy");

        assertNull(transform(transformer, APPLICATION, "com/acme/legacy/Old", classFile));
        assertNull(transform(transformer, APPLICATION, "org/example/Other", classFile));
        assertEquals(0L, counters.classesRewritten());
        assertEquals(0L, counters.classesScanned());
    }

    @Test
    void leavesTheJdkAndTheAgentAlone() {
        CallSiteTransformer transformer = transformer("");

        assertNull(transform(transformer, CallSiteTransformer.class.getClassLoader(), "com/acme/X", classFile),
                "the agent's own loader");
        assertNull(transform(transformer, null, "com/acme/BootLoaded", classFile), "boot loader");
        assertNull(transform(transformer, ClassLoader.getPlatformClassLoader(), "com/acme/PlatformLoaded", classFile));
        assertNull(transform(transformer, APPLICATION, "java/util/Whatever", classFile));
        assertNull(transform(transformer, APPLICATION, "io/clockagent/agent/shaded/Library", classFile));
        assertNull(transform(transformer, APPLICATION, null, classFile), "a class without a name");
    }

    @Test
    void anIncludeAboveTheJdkOrTheAgentStillLeavesThemAlone() {
        CallSiteTransformer transformer = transformer("include=com:io");

        assertNull(transform(transformer, APPLICATION, "com/sun/Whatever", classFile));
        assertNull(transform(transformer, APPLICATION, "io/clockagent/agent/shaded/Library", classFile));
        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service", classFile));
        assertEquals(1L, counters.classesScanned());
    }

    @Test
    void theMBeanServerClassFromTheBootLoaderSignalsJmxStartingAndIsNotCountedAsScanned() {
        CallSiteTransformer transformer = transformer("");

        assertNull(transform(transformer, null, ClassLoadSignals.MBEAN_SERVER_CLASS, classFile));
        assertNull(transform(transformer, APPLICATION, ClassLoadSignals.MBEAN_SERVER_CLASS, classFile));
        assertNull(transform(transformer, null, "java/lang/Thread", classFile));

        assertEquals(1, signals.jmxStarts, "the boot loader's MBean server class alone");
        assertEquals(0, signals.detachRequests);
        assertEquals(0L, counters.classesScanned());
    }

    @Test
    void aClassThatCannotBeRewrittenLoadsUnchangedAndIsReportedOnce() {
        CallSiteTransformer transformer = transformer("");
        byte[] truncated = Arrays.copyOf(classFile, classFile.length - 7);

        assertNull(transform(transformer, APPLICATION, "com/acme/Broken", truncated));
        assertNull(transform(transformer, new ClassLoader() { }, "com/acme/Broken", truncated));

        String report = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, report.lines().count(), report);
        assertTrue(report.startsWith("clock-agent: left com.acme.Broken unchanged: truncated class file"), report);
        assertEquals(1L, counters.classesFailed());
    }

    @Test
    void aNewerClassFileWhoseTagsAreAllKnownIsRewritten() {
        CallSiteTransformer transformer = transformer("include=com.acme");
        byte[] newer = GeneratedClasses.withMajorVersion(classFile, GeneratedClasses.NEWER_MAJOR_VERSIONS.get(0));

        assertNotNull(transform(transformer, APPLICATION, "com/acme/Service", newer));
        assertEquals("clock-agent: rewrote com.acme.Service: 8 call sites, 0 method references",
                err.toString(StandardCharsets.UTF_8).strip());
        assertEquals(0L, counters.classesFailed());
    }

    @Test
    void newerClassFilesWithAnUnknownConstantLoadUnchangedAndOnlyTheFirstOfTheRunIsReported() {
        CallSiteTransformer transformer = transformer("");
        byte[] first = GeneratedClasses.withUnknownConstant(GeneratedClasses.withMajorVersion(classFile, 70), 21);
        byte[] second = GeneratedClasses.withUnknownConstant(GeneratedClasses.withMajorVersion(classFile, 75), 2);
        byte[] truncated = Arrays.copyOf(classFile, classFile.length - 7);

        assertNull(transform(transformer, APPLICATION, "com/acme/First", first));
        assertNull(transform(transformer, APPLICATION, "com/acme/Second", second));
        assertNull(transform(transformer, new ClassLoader() { }, "com/acme/First", first));
        assertNull(transform(transformer, APPLICATION, "com/acme/Broken", truncated));

        List<String> report = err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
        assertEquals(2, report.size(), "one line for the newer classes, one for the malformed one: " + report);
        assertTrue(report.get(0).matches("clock-agent: left com\\.acme\\.First unchanged: class file version 70 has a"
                + " constant of unknown tag 21 \\(entry \\d+\\), and versions newer than 69 \\(Java 25\\) are read only"
                + " when every tag is known; later classes like it load unchanged without another line"),
                report.get(0));
        assertTrue(report.get(1).startsWith("clock-agent: left com.acme.Broken unchanged: truncated class file"),
                report.get(1));
        assertEquals(3L, counters.classesFailed(), "every class refused is counted, reported or not");
    }
}
