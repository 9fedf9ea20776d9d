package io.clockagent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sampled reads of one service run: the counter library asked the JVM for a thread dump at each sample (see
 * {@code wallclock_counter.c}), so the k-th dump on the service's stdout holds the k-th sampled thread, found by its
 * {@code nid} (hexadecimal up to JDK 18, decimal from JDK 19). Immutable.
 */
final class ReadSamples {

    private static final String DUMP_START = "Full thread dump";
    private static final Pattern THREAD_HEADER = Pattern.compile("^\".*\" .*nid=(0x[0-9a-f]+|[0-9]+) ");
    /** {@code \tat java.time.Clock.currentInstant(java.base@17.0.15/Clock.java:498)}: the method before the '('. */
    private static final Pattern FRAME = Pattern.compile("^\\s+at ([^(]+)\\(");

    private final List<ReadSite> sites;

    private ReadSamples(List<ReadSite> sites) {
        this.sites = sites;
    }

    static ReadSamples read(Path serviceStdout, List<Integer> sampledThreads) throws IOException {
        List<Map<Integer, List<String>>> dumps = new ArrayList<>();
        Map<Integer, List<String>> dump = null;
        List<String> frames = null;
        for (String line : Files.readAllLines(serviceStdout, StandardCharsets.UTF_8)) {
            Matcher header = THREAD_HEADER.matcher(line);
            Matcher frame = FRAME.matcher(line);
            if (line.startsWith(DUMP_START)) {
                dump = new LinkedHashMap<>();
                dumps.add(dump);
                frames = null;
            } else if (dump != null && header.find()) {
                String nid = header.group(1);
                frames = new ArrayList<>();
                dump.put(nid.startsWith("0x") ? Integer.parseInt(nid.substring(2), 16) : Integer.parseInt(nid),
                        frames);
            } else if (frames != null && frame.find()) {
                frames.add(frame.group(1));
            } else if (line.isEmpty()) {
                frames = null;
            }
        }
        List<ReadSite> sites = new ArrayList<>();
        for (int k = 0; k < Math.min(dumps.size(), sampledThreads.size()); k++) {
            List<String> sampled = dumps.get(k).get(sampledThreads.get(k));
            if (sampled != null) {
                sites.add(ReadSite.of(sampled));
            }
        }
        return new ReadSamples(sites);
    }

    int count() {
        return sites.size();
    }

    /** The share of the samples that the JDK's own code read; NaN without samples. */
    double jdkShare() {
        return sites.isEmpty() ? Double.NaN : sites.stream().filter(ReadSite::inJdk).count() / (double) sites.size();
    }

    /** Each distinct site with its number of samples, most first. */
    List<Map.Entry<ReadSite, Integer>> bySite() {
        Map<ReadSite, Integer> counts = new LinkedHashMap<>();
        for (ReadSite site : sites) {
            counts.merge(site, 1, Integer::sum);
        }
        List<Map.Entry<ReadSite, Integer>> ranked = new ArrayList<>(counts.entrySet());
        ranked.sort(Map.Entry.<ReadSite, Integer>comparingByValue().reversed());
        return ranked;
    }
}
