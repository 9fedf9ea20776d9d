/*
 * The agent image's installer: copies clock-agent.jar and libclockagent.so from the folder it runs from into the
 * folder it is given, where the service's JVM finds them (-agentpath:FOLDER/libclockagent.so). An init container runs
 * it, as the image's entry point, with the shared volume as its argument: the image holds no shell, so the copy is
 * this program's own, built static so that it needs nothing of the image either. Each file is written beside its
 * final name and renamed into place, so that a JVM never loads half a library, whatever kills the container; and it
 * copies through one small buffer, so that a memory limit of a few MiB holds it. One line says what it did, or what
 * failed, with the path; the exit status is 0 or 1.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the image puts the agent, the installer beside it; the folder the installer is run from wins. */
#define IMAGE_FOLDER "/clock-agent"
#define COPY_BUFFER_BYTES 65536

static const char *const FILES[] = {"clock-agent.jar", "libclockagent.so"};

static int fail(const char *what, const char *path) {
    fprintf(stderr, "clock-agent install: cannot %s %s: %s\n", what, path, strerror(errno));
    return 0;
}

static int write_all(int to, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(to, bytes, length);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return 0;
        }
        bytes += written;
        length -= (size_t) written;
    }
    return 1;
}

/* Copies `from` to `to` through a file beside it, renamed into place once whole and on disk. */
static int copy(const char *from, const char *to, const char *partial) {
    static char buffer[COPY_BUFFER_BYTES];
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        return fail("read", from);
    }
    int out = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        close(in);
        return fail("write", partial);
    }
    int ok = 1;
    for (;;) {
        ssize_t read_bytes = read(in, buffer, sizeof buffer);
        if (read_bytes < 0 && errno == EINTR) {
            continue;
        }
        if (read_bytes < 0) {
            ok = fail("read", from);
            break;
        }
        if (read_bytes == 0) {
            break;
        }
        if (!write_all(out, buffer, (size_t) read_bytes)) {
            ok = fail("write", partial);
            break;
        }
    }
    close(in);
    /* The mode whatever the umask: the service's JVM may run as another user than the init container. */
    ok = ok && (fchmod(out, 0644) == 0 || fail("set the mode of", partial));
    ok = ok && (fsync(out) == 0 || fail("write", partial));
    if (close(out) != 0 && ok) {
        ok = fail("write", partial);
    }
    ok = ok && (rename(partial, to) == 0 || fail("rename into place", to));
    if (!ok) {
        unlink(partial);
    }
    return ok;
}

/* FOLDER/NAME, or FOLDER/.NAME.partial for the file a copy is written to first. */
static int joined(char *path, size_t size, const char *folder, const char *name, int partial) {
    int length = snprintf(path, size, "%s/%s%s%s", folder, partial ? "." : "", name, partial ? ".partial" : "");
    if (length < 0 || (size_t) length >= size) {
        fprintf(stderr, "clock-agent install: the path %s/%s is too long\n", folder, name);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2 || argv[1][0] == '\0') {
        fprintf(stderr, "usage: install FOLDER (copies clock-agent.jar and libclockagent.so there, for"
                        " -agentpath:FOLDER/libclockagent.so)\n");
        return 2;
    }
    const char *target = argv[1];
    char source[4096];
    const char *slash = strrchr(argv[0], '/');
    if (slash == NULL) {
        snprintf(source, sizeof source, "%s", IMAGE_FOLDER);
    } else {
        snprintf(source, sizeof source, "%.*s", (int) (slash - argv[0]), argv[0]);
    }
    if (mkdir(target, 0755) != 0 && errno != EEXIST) {
        return fail("create", target) ? 0 : 1;
    }
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        char from[4096];
        char to[4096];
        char partial[4096];
        if (!joined(from, sizeof from, source[0] == '\0' ? "" : source, FILES[i], 0)
                || !joined(to, sizeof to, target, FILES[i], 0) || !joined(partial, sizeof partial, target, FILES[i], 1)
                || !copy(from, to, partial)) {
            return 1;
        }
    }
    printf("clock-agent: installed clock-agent.jar and libclockagent.so into %s; start the JVM with"
           " -agentpath:%s/libclockagent.so\n", target, target);
    return 0;
}
