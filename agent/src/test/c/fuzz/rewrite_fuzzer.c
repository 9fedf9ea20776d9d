/*
 * libFuzzer harness for rewrite_call_sites (call_site_rewriter.c), the native class filter's parser of class files.
 * It is fed any bytes, whether or not they hold the clock method's name: the scan before it lets through every class
 * that merely holds the name, so the rewriter meets whatever follows, and its walk over the pool runs either way.
 * Built under AddressSanitizer and UndefinedBehaviorSanitizer by fuzz.sh; an out-of-bounds read, a leak or any
 * undefined behaviour aborts the run.
 *
 * Beyond memory safety it checks what the JVM relies on when it takes the rewritten bytes, as a class where
 * cachedInstants applies and as one where it does not: the class keeps its magic and version, grows by at least the
 * two entries appended to its constant pool (and a name and a NameAndType for each renamed redirect), counts them in
 * its pool count, and a second pass over it finds nothing left to redirect; where nothing is rewritten, nothing is
 * allocated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "call_site_rewriter.h"
#include "class_file_format.h"

static const char TARGET[] = "java/lang/ClockAgentCachedClock";
/*
 * The library clocks, which the defaults redirect, and one of the service's own, whose uses the rewriter checks to be
 * static: the saved inputs regressions/own-clock-*.class name it.
 */
static const clock_method LIBRARY_AND_OWN[] = {LIBRARY_CLOCKS_ENTRIES, {"g/OwnClock", "now", 0}};
static unsigned long long withdrawn;
static const clock_methods CLOCKS = {LIBRARY_AND_OWN, sizeof LIBRARY_AND_OWN / sizeof LIBRARY_AND_OWN[0], &withdrawn};
/* The Utf8 entry (tag, length, text) and the Class entry (tag, index) the rewrite appends. */
static const size_t ADDED_BYTES = 3 + sizeof TARGET - 1 + 3;
#define ADDED_ENTRIES 2
#define MAGIC_AND_VERSION_BYTES 8
#define POOL_COUNT_OFFSET 8

static unsigned char *heap_allocate(void *context, size_t size) {
    (void) context;
    return malloc(size);
}

static unsigned pool_count(const unsigned char *bytes) {
    return (unsigned) bytes[POOL_COUNT_OFFSET] << 8 | bytes[POOL_COUNT_OFFSET + 1];
}

static void rewrite_checked(const uint8_t *data, size_t size, int cached_instants) {
    jint rewritten_length = 0;
    unsigned char *rewritten = NULL;
    rewrite_outcome outcome = rewrite_call_sites(data, (jint) size, TARGET, cached_instants, &CLOCKS, heap_allocate,
                                                 NULL, &rewritten_length, &rewritten);
    if (outcome != REWRITE_DONE) {
        if (rewritten != NULL || rewritten_length != 0) {
            abort();
        }
        return;
    }
    if (rewritten == NULL || (size_t) rewritten_length < size + ADDED_BYTES
            || memcmp(rewritten, data, MAGIC_AND_VERSION_BYTES) != 0
            || pool_count(rewritten) < pool_count(data) + ADDED_ENTRIES) {
        abort();
    }
    jint again_length = 0;
    unsigned char *again = NULL;
    if (rewrite_call_sites(rewritten, rewritten_length, TARGET, cached_instants, &CLOCKS, heap_allocate, NULL,
                           &again_length, &again) != REWRITE_NOT_NEEDED || again != NULL) {
        abort();
    }
    free(rewritten);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INT32_MAX) {
        return 0;
    }
    rewrite_checked(data, size, 0);
    rewrite_checked(data, size, 1);
    return 0;
}
