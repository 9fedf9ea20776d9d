/*
 * The agent's option grammar in C, for entry points that must read the options before any of the agent's Java runs:
 * the same sources merged by key, the same values and the same one-line errors as the Java parser
 * (io.clockagent.agent.internal.options.AgentOptions), which NativeOptionsParityTest holds it to case by case.
 * Texts are UTF-8; the Java parser's character classes come from option_grammar.h.
 */
#ifndef CLOCK_AGENT_AGENT_OPTIONS_H
#define CLOCK_AGENT_AGENT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "clock_methods.h"

/* The three sources, strongest first; a key given in a stronger source replaces all its values from weaker ones. */
enum { SOURCE_AGENT_ARGUMENTS, SOURCE_SYSTEM_PROPERTY, SOURCE_ENVIRONMENT_VARIABLE, SOURCE_COUNT };

/* A boolean option that was not given, where that differs from false. */
#define OPTION_UNSET (-1)

typedef struct {
    size_t count;
    /* Internal-name prefixes ending in '/', such as "com/acme/". */
    char **prefixes;
} package_prefixes;

/* Texts of their own, such as the clocks option's entries or the lines that say which were left out. */
typedef struct {
    size_t count;
    char **texts;
} text_list;

typedef struct {
    package_prefixes includes;
    package_prefixes excludes;
    package_prefixes cached_instants;
    long long tick_nanos;
    /* The tick as written, for the banner; "1ms" when not given. */
    char *tick_text;
    /* Indexes into WAIT_VALUES, CACHE_VALUES and LIBRARY_CLOCKS_VALUES; cache is OPTION_UNSET when not given. */
    int wait;
    int cache;
    int library_clocks;
    /* The clocks option's entries, as dotted names such as com.acme.time.SystemClock.now. */
    text_list own_clocks;
    /*
     * The clock methods redirected besides the JDK's: the library clocks unless libraryClocks=keep, then the own
     * clocks; where these are any, in storage of their own, which free_agent_options releases.
     */
    clock_methods clocks;
    clock_method *clock_storage;
    /* The lines, after the agent's prefix, that say which clocks entries were left out, as AgentOptions.warnings. */
    text_list warnings;
    int monotonic;
    int verbose;
    /* As AgentOptions.quiet(): set where enabled=false turned the agent off too. */
    int quiet;
    int strict;
    /* "summary", a file path, or NULL. */
    char *report;
    int dry_run;
    int jmx;
    /* OPTION_UNSET, 0 or 1. */
    int native_filter;
    /* Which sources gave an option that took effect, by bit (1 << SOURCE_...). */
    unsigned sources;
    /*
     * The strongest source (SOURCE_...) that says enabled=false, which turns the agent off whatever else any source
     * says, bad options and strict=true included; the other fields then hold nothing. OPTION_UNSET while it is on.
     */
    int off_by;
} agent_options;

/*
 * Parses and merges the sources, any of which may be NULL. On success returns 1 and fills `options`, which
 * free_agent_options releases. On a bad option returns 0 and sets `*error` to its one-line description (free it) and
 * `*strict_requested` to whether the merged options ask for strict=true; if memory runs short, `*error` is NULL.
 */
int parse_agent_options(const char *const sources[SOURCE_COUNT], agent_options *options, char **error,
                        int *strict_requested);

void free_agent_options(agent_options *options);

/*
 * A source's text as the parser read it, as UTF-16 code units (a malformed byte U+FFFD), for the Java side, which must
 * parse the very text this parser did: into `units`, with room for strlen(text) of them; returns how many.
 */
size_t option_text_utf16(const char *text, uint16_t *units);

/* The name of the source whose enabled=false turned the agent off, as AgentOptions.turnedOffBy(); NULL while on. */
const char *turned_off_by(const agent_options *options);

/* Whether the options ask for cache=always: the clock cached from the first read, with no measurement. */
int caches_always(const agent_options *options);

/* The options as the banner shows them, as AgentOptions.describe() does; NULL if memory runs short. Free it. */
char *describe_agent_options(const agent_options *options);

#endif
