package io.clockagent.agent.internal.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibrariesPrivateCopyTest {

    private static final byte[] LIBRARY = "not really a library".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path temporaryDirectory;

    @Test
    void writesTheLibraryIntoADirectoryOnlyItsOwnerMayEnterAndDeletesBoth() throws IOException {
        File library = write("clock-agent-1-2");
        Path file = library.toPath();
        Path directory = file.getParent();

        assertEquals(temporaryDirectory.resolve("clock-agent-1-2"), directory);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
        assertArrayEquals(LIBRARY, Files.readAllBytes(file));

        NativeLibraries.deletePrivateCopy(library);
        assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aNameThatExistsIsRefusedAndLeftAsItWas() throws IOException {
        Path planted = Files.createDirectory(temporaryDirectory.resolve("clock-agent-1-2"));
        Files.writeString(planted.resolve(NativeLibraries.FILE_NAME), "planted");

        assertThrows(IOException.class, () -> write("clock-agent-1-2"));
        assertEquals("planted", Files.readString(planted.resolve(NativeLibraries.FILE_NAME)));
    }

    @Test
    void aLinkPlantedInItsPlaceIsRefusedAndNeverFollowed() throws IOException {
        Path elsewhere = Files.createDirectory(temporaryDirectory.resolve("elsewhere"));
        Files.createSymbolicLink(temporaryDirectory.resolve("clock-agent-1-2"), elsewhere);

        assertThrows(IOException.class, () -> write("clock-agent-1-2"));
        try (var left = Files.list(elsewhere)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void aParentThatCannotTakeTheDirectoryFailsAndLeavesNothing() throws IOException {
        Path missingParent = temporaryDirectory.resolve("no-such-directory");

        assertThrows(IOException.class, () -> NativeLibraries.writePrivateCopy(missingParent.toFile(),
                "clock-agent-1-2", NativeLibraries.FILE_NAME, new ByteArrayInputStream(LIBRARY), LIBRARY.length));
        assertFalse(Files.exists(missingParent));
    }

    @Test
    void aLibraryThatCannotBeReadLeavesNothing() throws IOException {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("disk full");
            }
        };

        assertThrows(IOException.class, () -> NativeLibraries.writePrivateCopy(temporaryDirectory.toFile(),
                "clock-agent-1-2", NativeLibraries.FILE_NAME, failing, LIBRARY.length));
        try (var left = Files.list(temporaryDirectory)) {
            assertTrue(left.toList().isEmpty());
        }
    }

    @Test
    void aFileThatCannotBeCreatedInTheNewDirectoryLeavesNothing() throws IOException {
        String tooLongForLinux = "x".repeat(300);

        assertThrows(IOException.class, () -> NativeLibraries.writePrivateCopy(temporaryDirectory.toFile(),
                "clock-agent-1-2", tooLongForLinux, new ByteArrayInputStream(LIBRARY), LIBRARY.length));
        try (var left = Files.list(temporaryDirectory)) {
            assertTrue(left.toList().isEmpty());
        }
    }

    @Test
    void aLibraryShorterThanItsEntrySaysIsRefusedAndLeavesNothing() throws IOException {
        IOException refused = assertThrows(IOException.class, () -> NativeLibraries.writePrivateCopy(
                temporaryDirectory.toFile(), "clock-agent-1-2", NativeLibraries.FILE_NAME,
                new ByteArrayInputStream(LIBRARY), LIBRARY.length + 1));

        assertTrue(refused.getMessage().contains(String.valueOf(LIBRARY.length + 1)), refused.getMessage());
        try (var left = Files.list(temporaryDirectory)) {
            assertTrue(left.toList().isEmpty());
        }
    }

    @Test
    void aStreamThatHandsOutFewBytesAtATimeIsReadToTheEnd() throws IOException {
        InputStream trickling = new ByteArrayInputStream(LIBRARY) {
            @Override
            public synchronized int read(byte[] into, int offset, int length) {
                return super.read(into, offset, Math.min(length, 3));
            }
        };

        File library = NativeLibraries.writePrivateCopy(temporaryDirectory.toFile(), "clock-agent-1-2",
                NativeLibraries.FILE_NAME, trickling, LIBRARY.length);

        assertArrayEquals(LIBRARY, Files.readAllBytes(library.toPath()));
        NativeLibraries.deletePrivateCopy(library);
    }

    private File write(String directoryName) throws IOException {
        return NativeLibraries.writePrivateCopy(temporaryDirectory.toFile(), directoryName, NativeLibraries.FILE_NAME,
                new ByteArrayInputStream(LIBRARY), LIBRARY.length);
    }
}
