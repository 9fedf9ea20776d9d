package io.clockagent.bench.classheavy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ClassHeavyProgramTest {

    @Test
    void aClassEntryBecomesItsBinaryName() {
        assertEquals("org.h2.Driver", ClassHeavyProgram.classNameOf("org/h2/Driver.class"));
        assertEquals("org.h2.util.Utils$1", ClassHeavyProgram.classNameOf("org/h2/util/Utils$1.class"));
    }

    @Test
    void descriptorsResourcesAndVersionedEntriesAreNoClassesToLoad() {
        assertNull(ClassHeavyProgram.classNameOf("module-info.class"));
        assertNull(ClassHeavyProgram.classNameOf("org/h2/package-info.class"));
        assertNull(ClassHeavyProgram.classNameOf("META-INF/versions/21/org/h2/util/Utils21.class"));
        assertNull(ClassHeavyProgram.classNameOf("org/h2/res/help.csv"));
        assertNull(ClassHeavyProgram.classNameOf("org/h2/"));
    }
}
