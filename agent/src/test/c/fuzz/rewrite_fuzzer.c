/*
 * libFuzzer harness for every byte of a class file that the native class filter reads: the scan for the clock
 * method's name (class_filter.c's judge, a memmem over the class bytes) and, where it matches, the constant-pool
 * rewrite (call_site_rewriter.c), which parses the class. Built under AddressSanitizer and
 * UndefinedBehaviorSanitizer by fuzz.sh; an out-of-bounds read or any undefined behaviour aborts the run.
 *
 * Beyond memory safety it checks what the JVM relies on when it takes the rewritten bytes: the class grows by exactly
 * the two entries appended to its constant pool, keeps its magic, and a second pass over it finds nothing left to
 * redirect; where nothing is rewritten, nothing is allocated.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "call_site_rewriter.h"

static const char CLOCK_METHOD_NAME[] = "currentTimeMillis";
static const char TARGET[] = "java/lang/ClockAgentCachedClock";
/* The Utf8 entry (tag, length, text) and the Class entry (tag, index) the rewrite appends. */
static const size_t ADDED = 3 + sizeof TARGET - 1 + 3;

static unsigned char *heap_allocate(void *context, size_t size) {
    (void) context;
    return malloc(size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INT32_MAX || memmem(data, size, CLOCK_METHOD_NAME, sizeof CLOCK_METHOD_NAME - 1) == NULL) {
        return 0;
    }
    jint rewritten_length = 0;
    unsigned char *rewritten = NULL;
    rewrite_outcome outcome = rewrite_call_sites(data, (jint) size, TARGET, heap_allocate, NULL, &rewritten_length,
                                                 &rewritten);
    if (outcome != REWRITE_DONE) {
        if (rewritten != NULL || rewritten_length != 0) {
            abort();
        }
        return 0;
    }
    if (rewritten == NULL || (size_t) rewritten_length != size + ADDED || memcmp(rewritten, data, 8) != 0) {
        abort();
    }
    jint again_length = 0;
    unsigned char *again = NULL;
    if (rewrite_call_sites(rewritten, rewritten_length, TARGET, heap_allocate, NULL, &again_length, &again)
            != REWRITE_NOT_NEEDED || again != NULL) {
        abort();
    }
    free(rewritten);
    return 0;
}
