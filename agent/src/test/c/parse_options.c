/*
 * Test driver for agent_options.c (built with option_text.c): reads cases from stdin, one per line, each the three
 * sources (agent arguments, system property, environment variable) separated by spaces, each hex-encoded UTF-8 or "-"
 * for none; writes one hex-encoded line per case: the parsed options, the source that turned the agent off, or the
 * error, in the form NativeOptionsParityTest builds from the Java parser. Hex keeps any byte of a case or a message on
 * its own line.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_options.h"

static char *decode(const char *hex) {
    if (strcmp(hex, "-") == 0) {
        return NULL;
    }
    size_t length = strlen(hex) / 2;
    char *text = malloc(length + 1);
    if (text == NULL) {
        exit(2);
    }
    for (size_t i = 0; i < length; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            exit(2);
        }
        text[i] = (char) byte;
    }
    text[length] = '\0';
    return text;
}

typedef struct {
    char *text;
    size_t length;
} line;

static void add(line *out, const char *text) {
    size_t length = strlen(text);
    char *grown = realloc(out->text, out->length + length + 1);
    if (grown == NULL) {
        exit(2);
    }
    memcpy(grown + out->length, text, length + 1);
    out->text = grown;
    out->length += length;
}

static void add_prefixes(line *out, const package_prefixes *prefixes) {
    for (size_t i = 0; i < prefixes->count; i++) {
        add(out, i == 0 ? "" : " ");
        add(out, prefixes->prefixes[i]);
    }
}

int main(void) {
    char *input = NULL;
    size_t capacity = 0;
    /* Lines of any length: a fuzzer's corpus may hold long inputs. */
    while (getline(&input, &capacity, stdin) != -1) {
        input[strcspn(input, "\n")] = '\0';
        char *fields[SOURCE_COUNT];
        char *next = input;
        for (int i = 0; i < SOURCE_COUNT; i++) {
            fields[i] = strsep(&next, " ");
            if (fields[i] == NULL) {
                return 2;
            }
        }
        const char *sources[SOURCE_COUNT];
        for (int i = 0; i < SOURCE_COUNT; i++) {
            sources[i] = decode(fields[i]);
        }
        agent_options options;
        char *error;
        int strict_requested;
        line out = {0};
        add(&out, "");
        int parsed = parse_agent_options(sources, &options, &error, &strict_requested);
        if (parsed && turned_off_by(&options) != NULL) {
            add(&out, "off\t");
            add(&out, turned_off_by(&options));
            add(&out, options.quiet ? "\t1" : "\t0");
            free_agent_options(&options);
        } else if (parsed) {
            char *described = describe_agent_options(&options);
            static const char *const CACHE[] = {"auto", "always"};
            char numbers[256];
            snprintf(numbers, sizeof numbers, "\t%lld\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", options.tick_nanos,
                     options.cache < 0 ? "auto" : CACHE[options.cache], options.monotonic, options.verbose,
                     options.quiet, options.strict, options.dry_run, options.jmx, options.native_filter != 0,
                     options.native_filter == 1);
            add(&out, "ok\t");
            add(&out, described == NULL ? "(no memory)" : described);
            add(&out, numbers);
            add(&out, options.report == NULL ? "-" : options.report);
            add(&out, "\t");
            add_prefixes(&out, &options.includes);
            add(&out, "\t");
            add_prefixes(&out, &options.excludes);
            add(&out, "\t");
            add_prefixes(&out, &options.cached_instants);
            add(&out, "\t");
            for (size_t i = 0; i < options.clocks.count; i++) {
                add(&out, i == 0 ? "" : " ");
                add(&out, options.clocks.methods[i].owner);
                add(&out, ".");
                add(&out, options.clocks.methods[i].name);
                add(&out, options.clocks.methods[i].known_static ? "" : "?");
            }
            add(&out, "\t");
            for (size_t i = 0; i < options.warnings.count; i++) {
                add(&out, i == 0 ? "" : "\n");
                add(&out, options.warnings.texts[i]);
            }
            free(described);
            free_agent_options(&options);
        } else {
            add(&out, strict_requested ? "error\t1\t" : "error\t0\t");
            add(&out, error == NULL ? "(no memory)" : error);
            free(error);
        }
        for (size_t i = 0; i < out.length; i++) {
            printf("%02x", (unsigned char) out.text[i]);
        }
        printf("\n");
        free(out.text);
        for (int i = 0; i < SOURCE_COUNT; i++) {
            free((char *) sources[i]);
        }
    }
    free(input);
    return 0;
}
