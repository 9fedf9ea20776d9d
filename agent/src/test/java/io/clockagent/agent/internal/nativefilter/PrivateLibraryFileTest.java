package io.clockagent.agent.internal.nativefilter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
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

class PrivateLibraryFileTest {

    private static final byte[] LIBRARY = "not really a library".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path temporaryDirectory;

    @Test
    void writesTheLibraryIntoADirectoryOnlyItsOwnerMayEnterAndDeletesBothOnClose() throws IOException {
        Path directory;
        Path file;
        try (PrivateLibraryFile library = write("clock-agent-1-2")) {
            file = library.file().toPath();
            directory = file.getParent();

            assertEquals(temporaryDirectory.resolve("clock-agent-1-2"), directory);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
            assertArrayEquals(LIBRARY, Files.readAllBytes(file));
        }

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

        assertThrows(IOException.class, () -> PrivateLibraryFile.write(missingParent.toFile(), "clock-agent-1-2",
                NativeLibraries.FILE_NAME, new ByteArrayInputStream(LIBRARY)));
        assertFalse(Files.exists(missingParent));
    }

    @Test
    void aFailedWriteDeletesWhatItCreated() throws IOException {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("disk full");
            }
        };

        assertThrows(IOException.class, () -> PrivateLibraryFile.write(temporaryDirectory.toFile(), "clock-agent-1-2",
                NativeLibraries.FILE_NAME, failing));
        try (var left = Files.list(temporaryDirectory)) {
            assertTrue(left.toList().isEmpty());
        }
    }

    private PrivateLibraryFile write(String directoryName) throws IOException {
        return PrivateLibraryFile.write(temporaryDirectory.toFile(), directoryName, NativeLibraries.FILE_NAME,
                new ByteArrayInputStream(LIBRARY));
    }
}
