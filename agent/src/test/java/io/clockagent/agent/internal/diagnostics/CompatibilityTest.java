package io.clockagent.agent.internal.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.clockagent.agent.Internals;
import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class CompatibilityTest {

    @Test
    void theJdksTestedRunFromTheOldestSupportedToTheOneWhoseClassFilesAreTheNewestKnown() {
        assertEquals(Internals.OLDEST_SUPPORTED_FEATURE, Compatibility.TESTED_JDK_FEATURES.get(0));
        assertEquals(CallSiteRewriter.NEWEST_KNOWN_JAVA_RELEASE, Collections.max(Compatibility.TESTED_JDK_FEATURES),
                "a newer JDK tested means a newer class file format to review, tag by tag");
    }

    @Test
    void versionSaysWhichJdksWereTestedAndWhichClassFilesAreRead() {
        assertEquals("tested on: JDK 11, 17, 21, 25", Compatibility.testedOn());
        assertEquals("class files read: versions 45 (Java 1.1) to 69 (Java 25), and newer ones whose constant-pool"
                + " tags are all known to version 69", Compatibility.classFilesRead());
    }
}
