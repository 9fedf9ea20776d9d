package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.CHeader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code banner.h}: the parts of the agent's banner ({@link AgentVersion#banner}) that the {@code -agentpath}
 * entry prints as the JVM starts, before any of the agent's Java runs: the version, the phrases around the options
 * (which {@code describe_agent_options} writes as {@code AgentOptions.describe} does) and where the clocksource is
 * read ({@link HostClocksource}). Run by {@code agent/src/main/c/build.sh} at build time, against the agent's
 * compiled classes, and never shipped.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.diagnostics.BannerHeader OUTPUT_FILE}
 */
final class BannerHeader {

    private BannerHeader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: BannerHeader OUTPUT_FILE");
        }
        new CHeader("CLOCK_AGENT_BANNER_H", "BannerHeader.java from AgentVersion.java, its version resource and"
                + " HostClocksource.java")
                .define("AGENT_VERSION", CHeader.quoted(AgentVersion.read()))
                .define("BANNER_CACHING", CHeader.quoted(AgentVersion.CACHING))
                .define("BANNER_DRY_RUN", CHeader.quoted(AgentVersion.DRY_RUN))
                .define("BANNER_CLOCKSOURCE", CHeader.quoted(AgentVersion.CLOCKSOURCE))
                .define("CURRENT_CLOCKSOURCE_FILE", CHeader.quoted(HostClocksource.LINUX_CURRENT_CLOCKSOURCE))
                .define("UNKNOWN_CLOCKSOURCE", CHeader.quoted(HostClocksource.unknown("Linux")))
                .write(Path.of(args[0]));
    }
}
