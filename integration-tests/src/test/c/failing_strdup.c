/*
 * failing_strdup: makes the agent's native library find memory exhausted as it copies one text, and nothing else in
 * the process, so that a test can see what the agent does then without starving the JVM.
 *
 * Preloaded (LD_PRELOAD=/path/libfailing_strdup.so), it takes the place of libc's strdup. A call whose text is exactly
 * FAILING_STRDUP_TEXT and whose caller is code of libclockagent.so fails as libc's does without memory: NULL, errno
 * ENOMEM. Every other call, the JVM's own and the library's copies of other texts, goes to libc. Each failure it makes
 * is written as a line to the file FAILING_STRDUP_LOG, so that a test can tell that the fault was injected at all: a
 * library that stopped copying the text with strdup would otherwise pass for one that survives the failure.
 *
 * Built by the integration tests: gcc -shared -fPIC -O2 -o libfailing_strdup.so failing_strdup.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AGENT_LIBRARY_FILE_NAME "libclockagent.so"

typedef char *(*strdup_function)(const char *);

static int caller_is_agent_library(const void *caller) {
    Dl_info library;
    if (dladdr(caller, &library) == 0 || library.dli_fname == NULL) {
        return 0;
    }
    const char *slash = strrchr(library.dli_fname, '/');
    return strcmp(slash == NULL ? library.dli_fname : slash + 1, AGENT_LIBRARY_FILE_NAME) == 0;
}

static void log_failure(const char *text) {
    const char *log_file = getenv("FAILING_STRDUP_LOG");
    FILE *log = log_file == NULL ? NULL : fopen(log_file, "a");
    if (log != NULL) {
        fprintf(log, "failed strdup(\"%s\") from " AGENT_LIBRARY_FILE_NAME "\n", text);
        fclose(log);
    }
}

/* libc's own strdup, looked up at the first call rather than in a constructor, which another library's may precede. */
static strdup_function libc_strdup(void) {
    static strdup_function found;
    strdup_function function = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = (strdup_function) dlsym(RTLD_NEXT, "strdup");
        __atomic_store_n(&found, function, __ATOMIC_RELEASE);
    }
    return function;
}

char *strdup(const char *text) {
    const char *failing = getenv("FAILING_STRDUP_TEXT");
    if (failing != NULL && strcmp(text, failing) == 0 && caller_is_agent_library(__builtin_return_address(0))) {
        log_failure(text);
        errno = ENOMEM;
        return NULL;
    }
    return libc_strdup()(text);
}
