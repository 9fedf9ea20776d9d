/*
 * libFuzzer harness for the option parser (agent_options.c with option_text.c), which the -agentpath entry runs on
 * whatever bytes the command line, the system property and the environment variable hold, before any of the agent's
 * Java runs. Built under AddressSanitizer and UndefinedBehaviorSanitizer by fuzz.sh; a finding or a crash is a
 * failure.
 *
 * An input is the three sources separated by NUL bytes, strongest first: agent arguments, system property,
 * environment variable. A source the input does not reach is absent (NULL), so that "a" gives only agent arguments and
 * "a\0\0c" an empty property; past the third source's own NUL, bytes are ignored, as the end of a C string ends it.
 * None of the three can hold a NUL, so the separator costs nothing they could carry. OptionsCorpusCheck reads the
 * corpus this harness grows the same way and holds the Java parser's verdict on every input to this one's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    const char *sources[SOURCE_COUNT] = {NULL, NULL, NULL};
    size_t at = 0;
    for (int source = 0; source < SOURCE_COUNT && (source == 0 || at <= size); source++) {
        sources[source] = text + at;
        at += strlen(text + at) + 1;
    }
    agent_options options;
    char *error;
    int strict_requested;
    if (parse_agent_options(sources, &options, &error, &strict_requested)) {
        if (turned_off_by(&options) == NULL) {
            /* What the entry then does with them: the banner, and the clock's start. */
            free(describe_agent_options(&options));
            (void) caches_always(&options);
        }
        free_agent_options(&options);
    } else {
        /* The entry prints the error, so it must be a whole C string. */
        if (error != NULL && strlen(error) == 0) {
            abort();
        }
        free(error);
    }
    free(text);
    return 0;
}
