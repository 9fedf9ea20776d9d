package io.clockagent.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The CPU time a running process has spent so far, its JVM's own threads included: the sum of Linux's per-thread
 * scheduler statistics ({@code /proc/PID/task/TID/schedstat}, nanoseconds, where the process totals count 10 ms
 * ticks). Taken twice, the difference is what the process spent between; a thread that ended in between takes its
 * time with it, so this suits windows in which the process keeps its threads. Linux only; any thread may call it.
 */
final class ProcessCpu {

    private ProcessCpu() {
    }

    static long nanos(long pid) {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String schedstat = Files.readString(task.resolve("schedstat"));
                    total += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                } catch (NoSuchFileException ended) {
                    // The thread ended between the listing and the read: its time went with it.
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException("cannot read the threads of process " + pid, unreadable);
        }
        return total;
    }
}
