package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdk;
import io.clockagent.it.support.OperableService;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prometheus' jmx_exporter, loaded as a second agent with the rule the README gives, serves the MBean's numbers as
 * {@code clock_agent_*} gauges. Everything stays on the loopback interface, and the scraping stops by itself.
 */
class JmxExporterTest {

    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long RETRY_MILLIS = 200;

    @OnEachJdk
    void jmxExporterWithTheReadmesRuleServesTheAgentsCountersAsGauges(int featureVersion, @TempDir Path runDirectory)
            throws Exception {
        Path config = Files.writeString(runDirectory.resolve("jmx-exporter.yaml"), readmeYaml(),
                StandardCharsets.UTF_8);
        int port = freeLoopbackPort();
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.httpserver", "jmx_exporter's HTTP endpoint");
        try (LiveJvm service = new ForkedJvm(jdk, runDirectory)
                // With a report the agent counts call sites, and the MBean has the counts to export; cache=always
                // keeps the ticker ticking at the service's few reads a second, which cache=auto leaves direct.
                .javaagent(BuildOutputs.agentJar(), OperableService.INCLUDE_SITES + ",report=summary,cache=always")
                .javaagent(BuildOutputs.jmxExporterJar(), "127.0.0.1:" + port + ":" + config)
                .classPath(BuildOutputs.testClasses())
                .startMain(OperableService.MAIN_CLASS, "sites", "keep-reading")) {
            service.awaitLine("reading");

            Map<String, String> gauges = scrapeUntilPresent(port, "clock_agent_ticks", service);

            assertTrue(Double.parseDouble(gauges.get("clock_agent_ticks")) > 0, gauges.toString());
            assertEquals(OperableService.CALL_SITES, Double.parseDouble(gauges.get("clock_agent_callsites")),
                    gauges.toString());
            assertEquals(OperableService.METHOD_REFERENCES,
                    Double.parseDouble(gauges.get("clock_agent_methodreferences")), gauges.toString());
            assertEquals(1_000_000.0, Double.parseDouble(gauges.get("clock_agent_ticknanos")), gauges.toString());
            assertEquals(0, service.finish().exitStatus(), service.describe());
        }
    }

    /**
     * Scrapes {@code /metrics} until the gauge appears: the exporter's server needs a moment to start, and the MBean
     * is registered only once the first scrape has started JMX.
     *
     * @return the {@code clock_agent_*} samples of the last scrape, by name
     */
    private static Map<String, String> scrapeUntilPresent(int port, String gauge, LiveJvm service)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        long deadlineNanos = System.nanoTime() + PATIENCE_NANOS;
        String lastBody = "(no answer yet)";
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                HttpResponse<String> response = client.send(scrape, HttpResponse.BodyHandlers.ofString());
                lastBody = response.statusCode() + "\n" + response.body();
                Map<String, String> samples = clockAgentSamples(response.body());
                if (response.statusCode() == 200 && samples.containsKey(gauge)) {
                    return samples;
                }
            } catch (ConnectException notListeningYet) {
                lastBody = notListeningYet.toString();
            }
            Thread.sleep(RETRY_MILLIS);
        }
        throw new AssertionError("no " + gauge + " on /metrics within " + TimeUnit.NANOSECONDS.toSeconds(
                PATIENCE_NANOS) + " s; last answer:\n" + lastBody + "\n" + service.describe());
    }

    /** The {@code clock_agent_*} samples of a Prometheus text exposition, by name (these gauges have no labels). */
    private static Map<String, String> clockAgentSamples(String exposition) {
        Map<String, String> samples = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            String[] words = line.split(" ");
            if (words.length == 2 && words[0].startsWith("clock_agent_")) {
                samples.put(words[0], words[1]);
            }
        }
        return samples;
    }

    /** The README's jmx_exporter configuration, exactly as a user would copy it. */
    private static String readmeYaml() throws IOException {
        List<String> readme = Files.readAllLines(BuildOutputs.readme(), StandardCharsets.UTF_8);
        int start = readme.indexOf("```yaml");
        assertTrue(start >= 0, "the README has no ```yaml block");
        int end = readme.subList(start + 1, readme.size()).indexOf("```") + start + 1;
        assertTrue(end > start + 1, "the README's yaml block is not closed");
        return String.join("\n", readme.subList(start + 1, end)) + "\n";
    }

    /**
     * A port that was free on the loopback interface a moment ago. Another process could take it before the
     * exporter binds; on a test machine that is rare enough, and the failure would say what happened.
     */
    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
