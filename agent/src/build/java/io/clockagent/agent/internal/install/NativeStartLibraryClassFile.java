package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.classfile.ClassRenamer;
import io.clockagent.agent.internal.clock.BootClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the class file that {@link NativeStart} defines in {@code java.lang} from Java 24 on to load the library:
 * {@code bootstrap.NativeStartLibrary} renamed {@code java.lang.ClockAgentNativeStartLibrary}, into the agent's classes
 * as the resource {@link NativeStart#LIBRARY_CLASS_FILE_RESOURCE}, so that {@code premain} neither loads
 * {@link ClassRenamer} nor runs it (about 0.4 ms of every start through {@code -javaagent} there). It is the renaming
 * that the Java side does at run time for the classes it defines there later, done at build time, as it is for the C
 * side's cached clock. Run by {@code agent/src/main/c/build.sh} at build time, against the agent's compiled classes;
 * the generator itself is never shipped.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.install.NativeStartLibraryClassFile
 * CLASSES_DIRECTORY}
 */
final class NativeStartLibraryClassFile {

    private NativeStartLibraryClassFile() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: NativeStartLibraryClassFile CLASSES_DIRECTORY");
        }
        Path output = Path.of(args[0], NativeStart.LIBRARY_CLASS_FILE_RESOURCE);
        Files.createDirectories(output.getParent());
        Files.write(output, ClassRenamer.rename(BootClock.sourceBytes(NativeStart.LIBRARY_SOURCE_INTERNAL_NAME),
                NativeStart.LIBRARY_SOURCE_INTERNAL_NAME, NativeStart.LIBRARY_INTERNAL_NAME));
    }
}
