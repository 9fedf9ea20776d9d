/*
 * libFuzzer harness for the native class filter's scan (class_scan.c), which reads every class file in scope that the
 * JVM loads, however malformed. Built under AddressSanitizer and UndefinedBehaviorSanitizer by fuzz.sh, whose
 * interceptor checks that the search reads no byte outside the class.
 *
 * It also holds the scan to the promise the class-load hook (agent_entry.c) builds on: a class it turns away is one
 * the rewriter would leave as it is, so that no read of the clock slips past the filter.
 */
#include <stdint.h>
#include <stdlib.h>

#include "call_site_rewriter.h"
#include "class_file_format.h"
#include "class_scan.h"

static const char TARGET[] = "java/lang/ClockAgentCachedClock";
/*
 * The library clocks, which the defaults redirect, and one of the service's own, whose uses the rewriter checks to be
 * static: the saved inputs regressions/own-clock-*.class name it.
 */
static const clock_method LIBRARY_AND_OWN[] = {LIBRARY_CLOCKS_ENTRIES, {"g/OwnClock", "now", 0}};
static unsigned long long withdrawn;
static const clock_methods CLOCKS = {LIBRARY_AND_OWN, sizeof LIBRARY_AND_OWN / sizeof LIBRARY_AND_OWN[0], &withdrawn};

static unsigned char *heap_allocate(void *context, size_t size) {
    (void) context;
    return malloc(size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > INT32_MAX || names_clock_method(data, (jint) size, &CLOCKS)) {
        return 0;
    }
    jint rewritten_length = 0;
    unsigned char *rewritten = NULL;
    for (int cached_instants = 0; cached_instants <= 1; cached_instants++) {
        if (rewrite_call_sites(data, (jint) size, TARGET, cached_instants, &CLOCKS, heap_allocate, NULL,
                               &rewritten_length, &rewritten) == REWRITE_DONE) {
            abort();
        }
    }
    return 0;
}
