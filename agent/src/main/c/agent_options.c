/*
 * The option parser of agent_options.h: the grammar itself. It follows the Java parser step by step (the merge in
 * AgentOptions.fromSources, AgentOptions.Builder, PackageNames, AgentOptions.parseTickNanos, AgentOptions.describe),
 * and reads the text, split into tokens as OptionToken.split does, one UTF-16 code unit at a time as Java does,
 * through option_text.c: a character outside the Basic Multilingual Plane is two surrogates to it, which are neither
 * identifier characters, whitespace nor digits.
 *
 * May include: agent_options.h, option_text.h.
 */
#include "agent_options.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_file_format.h"
#include "option_grammar.h"
#include "option_text.h"

#define PACKAGE_FORMS "a package name such as com.acme, optionally ending in .* or .**, several joined by ':'"
#define TICK_FORMS "; tick takes a whole number with a unit ns, us, ms or s, from 1ms to 1s (for example tick=1ms)"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const char *const SOURCE_NAMES[SOURCE_COUNT] = {
    AGENT_ARGUMENTS_SOURCE, SYSTEM_PROPERTY_SOURCE, ENVIRONMENT_VARIABLE_SOURCE};
static const char *const WAIT_SPELLINGS[] = WAIT_VALUES;
static const char *const CACHE_SPELLINGS[] = CACHE_VALUES;
static const char *const LIBRARY_CLOCKS_SPELLINGS[] = LIBRARY_CLOCKS_VALUES;
/* The library clocks, which libraryClocks=retire, the first of its values, redirects. */
static const clock_method LIBRARY_CLOCK_METHODS[] = LIBRARY_CLOCKS;
static const char *const IGNORED[] = IGNORED_PREFIXES_AND_REASONS;
static const char *const KEYS[] = OPTION_KEYS;
/* The merge keeps the keys a source gives as bits of one word. */
_Static_assert(COUNT(KEYS) <= 64, "more option keys than bits in unsigned long long");

/* OptionToken.quoted: the token as written, and its source unless it is the agent's own arguments. */
static void append_quoted(text_buffer *b, const token *t) {
    text_append(b, "'");
    text_append_excerpt(b, t->text, t->text_length);
    text_append(b, "'");
    if (t->source != SOURCE_AGENT_ARGUMENTS) {
        text_append(b, " (from ");
        text_append(b, SOURCE_NAMES[t->source]);
        text_append(b, ")");
    }
}

/* The values one token list sets, as AgentOptions.Builder collects them; "given" is what Java keeps as non-null. */
typedef struct {
    package_prefixes includes;
    package_prefixes excludes;
    package_prefixes cached_instants;
    int tick_given;
    long long tick_nanos;
    const char *tick_text;
    size_t tick_text_length;
    int wait;
    int cache;
    int library_clocks;
    text_list clocks;
    /* The first MOST_LEFT_OUT_LINES lines of entries left out, and how many more there were, as LeftOutEntries. */
    text_list warnings;
    size_t uncounted_warnings;
    int monotonic;
    int verbose;
    int quiet;
    int strict;
    const char *report;
    size_t report_length;
    int dry_run;
    int jmx;
    int native_filter;
    int enabled;
} built;

static void free_texts(text_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->texts[i]);
    }
    free(list->texts);
    list->texts = NULL;
    list->count = 0;
}

/*
 * An array of `count` elements with room for one more, as it grows by doubling (counts of 0, 1, 2, 4, ... are where it
 * is full), so that an option repeated as often as a long text allows costs time and memory in proportion: the array
 * itself or its new place, NULL where memory runs short, the array then as it was. Returned rather than written
 * through a void ** to the caller's pointer, which would access a char ** as another type.
 */
static void *with_room_for_one_more(void *elements, size_t count, size_t element_size) {
    if (count != 0 && (count & (count - 1)) != 0) {
        return elements;
    }
    size_t capacity = count == 0 ? 1 : count * 2;
    return capacity > SIZE_MAX / element_size ? NULL : realloc(elements, capacity * element_size);
}

/* Adds a text the list takes over; 0 where memory runs short, the text then freed. */
static int add_text(text_list *list, char *text) {
    char **texts = text == NULL ? NULL : with_room_for_one_more(list->texts, list->count, sizeof *list->texts);
    if (texts == NULL) {
        free(text);
        return 0;
    }
    list->texts = texts;
    list->texts[list->count++] = text;
    return 1;
}

static void free_prefixes(package_prefixes *prefixes) {
    for (size_t i = 0; i < prefixes->count; i++) {
        free(prefixes->prefixes[i]);
    }
    free(prefixes->prefixes);
    prefixes->prefixes = NULL;
    prefixes->count = 0;
}

/* Why a bad token is refused: `*error` set to the message, or left NULL when memory ran short. */
typedef enum { ACCEPTED, REFUSED } outcome;

static outcome refuse(char **error, text_buffer *message) {
    *error = text_finish(message);
    return REFUSED;
}

/* "... in 'TOKEN' (from SOURCE)" + the rest, as most of the Java parser's messages read. */
static outcome refuse_token(char **error, const char *before, const token *t, const char *after) {
    text_buffer message = {0};
    text_append(&message, before);
    append_quoted(&message, t);
    text_append(&message, after);
    return refuse(error, &message);
}

static outcome require_once(const token *t, int given, char **error) {
    if (!given) {
        return ACCEPTED;
    }
    return refuse_token(error, "", t, " repeats an option that may be given only once (only include, exclude,"
                                       " cachedInstants and clocks repeat)");
}

static outcome boolean_value(const token *t, int *value, char **error) {
    if (text_equals(t->value, t->value_length, "true")) {
        *value = 1;
        return ACCEPTED;
    }
    if (text_equals(t->value, t->value_length, "false")) {
        *value = 0;
        return ACCEPTED;
    }
    return refuse_token(error, "bad value in ", t, "; valid values: true, false");
}

static outcome one_of(const token *t, const char *const *spellings, size_t count, int *value, char **error) {
    for (size_t i = 0; i < count; i++) {
        if (text_equals(t->value, t->value_length, spellings[i])) {
            *value = (int) i;
            return ACCEPTED;
        }
    }
    text_buffer message = {0};
    text_append(&message, "bad value in ");
    append_quoted(&message, t);
    text_append(&message, "; valid values: ");
    for (size_t i = 0; i < count; i++) {
        text_append(&message, i == 0 ? "" : ", ");
        text_append(&message, spellings[i]);
    }
    return refuse(error, &message);
}

/* PackageNames.isPackageName: dot-separated Java identifiers, judged one UTF-16 code unit at a time. */
static int is_package_name(const char *name, size_t length) {
    if (length == 0) {
        return 0;
    }
    const char *at = name;
    const char *end = name + length;
    int part_start = 1;
    while (at < end) {
        if (*at == '.') {
            if (part_start) {
                return 0;
            }
            part_start = 1;
            at++;
            continue;
        }
        int units;
        unsigned unit = next_code_unit(&at, end, &units);
        /* A surrogate pair's units are never identifier characters. */
        if (units != 1 || !(part_start ? is_java_identifier_start(unit) : is_java_identifier_part(unit))) {
            return 0;
        }
        part_start = 0;
    }
    return !part_start;
}

static int ends_with(const char *text, size_t length, const char *suffix) {
    size_t suffix_length = strlen(suffix);
    return length >= suffix_length && memcmp(text + length - suffix_length, suffix, suffix_length) == 0;
}

/* PackageNames.parse, appending "com/acme/" prefixes. */
static outcome package_names(const token *t, package_prefixes *prefixes, char **error) {
    if (t->value_length == 0) {
        return refuse_token(error, "empty package list in ", t, "; expected " PACKAGE_FORMS);
    }
    const char *raw = t->value;
    const char *end = t->value + t->value_length;
    for (;;) {
        const char *colon = memchr(raw, ':', (size_t) (end - raw));
        size_t raw_length = colon == NULL ? (size_t) (end - raw) : (size_t) (colon - raw);
        const char *name = raw;
        size_t length = raw_length;
        text_trim(&name, &length);
        if (ends_with(name, length, ".**")) {
            length -= 3;
        } else if (ends_with(name, length, ".*")) {
            length -= 2;
        }
        if (!is_package_name(name, length)) {
            text_buffer message = {0};
            text_append(&message, "bad package '");
            text_append_excerpt(&message, raw, raw_length);
            text_append(&message, "' in ");
            append_quoted(&message, t);
            text_append(&message, "; expected " PACKAGE_FORMS);
            return refuse(error, &message);
        }
        char *prefix = malloc(length + 2);
        char **grown = prefix == NULL ? NULL
                : with_room_for_one_more(prefixes->prefixes, prefixes->count, sizeof *prefixes->prefixes);
        if (grown == NULL) {
            free(prefix);
            *error = NULL;
            return REFUSED;
        }
        prefixes->prefixes = grown;
        for (size_t i = 0; i < length; i++) {
            prefix[i] = name[i] == '.' ? '/' : name[i];
        }
        prefix[length] = '/';
        prefix[length + 1] = '\0';
        for (size_t i = 0; i < COUNT(IGNORED); i += 2) {
            if (strncmp(prefix, IGNORED[i], strlen(IGNORED[i])) == 0) {
                free(prefix);
                text_buffer message = {0};
                text_append(&message, "package '");
                text_append_excerpt(&message, raw, raw_length);
                text_append(&message, "' in ");
                append_quoted(&message, t);
                text_append(&message, " is never rewritten (");
                text_append(&message, IGNORED[i + 1]);
                text_append(&message, "); name your own packages instead");
                return refuse(error, &message);
            }
        }
        prefixes->prefixes[prefixes->count++] = prefix;
        if (colon == NULL) {
            return ACCEPTED;
        }
        raw = colon + 1;
    }
}

/*
 * LeftOutEntries.add: "ignored 'RAW' in 'TOKEN' (from SOURCE)" and why, for the first MOST_LEFT_OUT_LINES entries, the
 * others only counted; 0 where memory runs short.
 */
static int warn(built *b, const char *raw, size_t raw_length, const token *t, const char *why) {
    if (b->warnings.count == MOST_LEFT_OUT_LINES) {
        b->uncounted_warnings++;
        return 1;
    }
    text_buffer message = {0};
    text_append(&message, "ignored '");
    text_append_excerpt(&message, raw, raw_length);
    text_append(&message, "' in ");
    append_quoted(&message, t);
    text_append(&message, why);
    return add_text(&b->warnings, text_finish(&message));
}

/*
 * ClockNames.parse: each entry of a clocks token kept as a dotted name, or left out with a warning; REFUSED (with
 * *error NULL) only where memory runs short.
 */
static outcome clock_names(const token *t, built *b, char **error) {
    text_list *clocks = &b->clocks;
    const char *raw = t->value;
    const char *end = t->value + t->value_length;
    int memory = 1;
    for (;;) {
        const char *colon = memchr(raw, ':', (size_t) (end - raw));
        size_t raw_length = colon == NULL ? (size_t) (end - raw) : (size_t) (colon - raw);
        const char *name = raw;
        size_t length = raw_length;
        text_trim(&name, &length);
        const char *last_dot = NULL;
        for (const char *at = name; at < name + length; at++) {
            last_dot = *at == '.' ? at : last_dot;
        }
        if (last_dot == NULL || !is_package_name(name, length)) {
            memory = warn(b, raw, raw_length, t, "; expected " CLOCK_FORMS);
        } else {
            const char *reason = NULL;
            size_t owner_length = (size_t) (last_dot - name);
            for (size_t i = 0; i < COUNT(IGNORED) && reason == NULL; i += 2) {
                size_t ignored_length = strlen(IGNORED[i]);
                /* The owner's internal name with a '/', as IgnoredPackages.reasonFor is asked. */
                int matches = owner_length + 1 >= ignored_length;
                for (size_t j = 0; j < ignored_length && matches; j++) {
                    char c = j == owner_length ? '/' : name[j] == '.' ? '/' : name[j];
                    matches = c == IGNORED[i][j];
                }
                reason = matches ? IGNORED[i + 1] : NULL;
            }
            int known = 0;
            for (size_t i = 0; i < clocks->count && !known; i++) {
                known = text_equals(name, length, clocks->texts[i]);
            }
            if (reason != NULL) {
                text_buffer why = {0};
                text_append(&why, ": its class is never rewritten (");
                text_append(&why, reason);
                text_append(&why, ")");
                char *because = text_finish(&why);
                memory = because != NULL && warn(b, raw, raw_length, t, because);
                free(because);
            } else if (clocks->count == MOST_CLOCK_METHODS) {
                memory = warn(b, raw, raw_length, t, CLOCKS_AT_MOST);
            } else if (!known) {
                memory = add_text(clocks, text_copy(name, length));
            }
        }
        if (!memory) {
            *error = NULL;
            return REFUSED;
        }
        if (colon == NULL) {
            return ACCEPTED;
        }
        raw = colon + 1;
    }
}

/* AgentOptions.parseTickNanos: leading decimal digits of any script, as Long.parseLong reads them, then a unit. */
static outcome tick_nanos(const token *t, long long *nanos, char **error) {
    const char *at = t->value;
    const char *end = t->value + t->value_length;
    long long amount = 0;
    int digits = 0;
    while (at < end) {
        const char *before = at;
        int units;
        unsigned unit = next_code_unit(&at, end, &units);
        int digit = units == 1 ? decimal_digit(unit) : -1;
        if (digit < 0) {
            at = before;
            break;
        }
        if (digits < 10) {
            amount = amount * 10 + (long long) digit;
        }
        digits++;
    }
    if (digits == 0) {
        return refuse_token(error, "bad duration ", t, TICK_FORMS);
    }
    long long unit_nanos;
    size_t unit_length = (size_t) (end - at);
    if (text_equals(at, unit_length, "ns")) {
        unit_nanos = 1LL;
    } else if (text_equals(at, unit_length, "us")) {
        unit_nanos = 1000LL;
    } else if (text_equals(at, unit_length, "ms")) {
        unit_nanos = 1000000LL;
    } else if (text_equals(at, unit_length, "s")) {
        unit_nanos = 1000000000LL;
    } else {
        return refuse_token(error, "bad duration ", t, TICK_FORMS);
    }
    if (digits > 10) {
        amount = LLONG_MAX;
    }
    if (amount > MAX_TICK_NANOS / unit_nanos || amount * unit_nanos < MIN_TICK_NANOS) {
        return refuse_token(error, "tick out of range in ", t, TICK_FORMS);
    }
    *nanos = amount * unit_nanos;
    return ACCEPTED;
}

static int is_key(const token *t, const char *key) {
    return t->key != NULL && text_equals(t->key, t->key_length, key);
}

static outcome accept(built *b, const token *t, char **error) {
    if (t->key == NULL) {
        if (text_is_blank(t->text, t->text_length) || memchr(t->text, ',', t->text_length) != NULL) {
            return refuse_token(error, "empty option in ", t,
                                "; options are key=value pairs separated by single commas");
        }
        return refuse_token(error, "", t, " is not key=value; valid keys: " VALID_KEYS);
    }
    if (is_key(t, "include")) {
        return package_names(t, &b->includes, error);
    }
    if (is_key(t, "exclude")) {
        return package_names(t, &b->excludes, error);
    }
    if (is_key(t, "cachedInstants")) {
        return package_names(t, &b->cached_instants, error);
    }
    if (is_key(t, "clocks")) {
        return clock_names(t, b, error);
    }
    if (is_key(t, "libraryClocks")) {
        return require_once(t, b->library_clocks != OPTION_UNSET, error) == REFUSED ? REFUSED
                : one_of(t, LIBRARY_CLOCKS_SPELLINGS, COUNT(LIBRARY_CLOCKS_SPELLINGS), &b->library_clocks, error);
    }
    if (is_key(t, "tick")) {
        if (require_once(t, b->tick_given, error) == REFUSED || tick_nanos(t, &b->tick_nanos, error) == REFUSED) {
            return REFUSED;
        }
        b->tick_given = 1;
        b->tick_text = t->value;
        b->tick_text_length = t->value_length;
        return ACCEPTED;
    }
    if (is_key(t, "wait")) {
        return require_once(t, b->wait != OPTION_UNSET, error) == REFUSED ? REFUSED
                : one_of(t, WAIT_SPELLINGS, COUNT(WAIT_SPELLINGS), &b->wait, error);
    }
    if (is_key(t, "cache")) {
        return require_once(t, b->cache != OPTION_UNSET, error) == REFUSED ? REFUSED
                : one_of(t, CACHE_SPELLINGS, COUNT(CACHE_SPELLINGS), &b->cache, error);
    }
    if (is_key(t, "report")) {
        if (require_once(t, b->report != NULL, error) == REFUSED) {
            return REFUSED;
        }
        if (t->value_length == 0) {
            return refuse_token(error, "empty value in ", t,
                                "; valid values: summary, or the path of a JSON file to write at exit");
        }
        b->report = t->value;
        b->report_length = t->value_length;
        return ACCEPTED;
    }
    /* enabled comes here true or with a bad value: false turned the agent off before any token was judged. */
    static const char *const BOOLEAN_KEYS[] = {"monotonic", "verbose", QUIET_KEY, "strict", "dryRun", "jmx",
                                               "nativeFilter", ENABLED_KEY};
    int *const boolean_values[] = {&b->monotonic, &b->verbose, &b->quiet, &b->strict, &b->dry_run, &b->jmx,
                                   &b->native_filter, &b->enabled};
    for (size_t i = 0; i < COUNT(BOOLEAN_KEYS); i++) {
        if (is_key(t, BOOLEAN_KEYS[i])) {
            return require_once(t, *boolean_values[i] != OPTION_UNSET, error) == REFUSED ? REFUSED
                    : boolean_value(t, boolean_values[i], error);
        }
    }
    text_buffer message = {0};
    text_append(&message, "unknown option '");
    text_append_excerpt(&message, t->key, t->key_length);
    text_append(&message, "' in ");
    append_quoted(&message, t);
    text_append(&message, "; valid keys: " VALID_KEYS);
    return refuse(error, &message);
}

static void free_built(built *b) {
    free_prefixes(&b->includes);
    free_prefixes(&b->excludes);
    free_prefixes(&b->cached_instants);
    free_texts(&b->clocks);
    free_texts(&b->warnings);
}

static void start_building(built *b) {
    memset(b, 0, sizeof *b);
    b->wait = b->cache = b->library_clocks = b->monotonic = b->verbose = b->quiet = b->strict = OPTION_UNSET;
    b->dry_run = b->jmx = b->native_filter = b->enabled = OPTION_UNSET;
}

/* AgentOptions.judge: the tokens of one source on their own, REFUSED at the first bad one. */
static outcome judge(const char *text, int source, char **error) {
    built b;
    start_building(&b);
    token_reader reader = read_tokens(text, source);
    token t;
    outcome judged = ACCEPTED;
    while (judged == ACCEPTED && next_token(&reader, &t)) {
        judged = accept(&b, &t, error);
    }
    free_built(&b);
    return judged;
}

/* The index of the token's key in OPTION_KEYS, or -1; every key is one once each source on its own was accepted. */
static int key_index(const token *t) {
    for (size_t i = 0; i < COUNT(KEYS); i++) {
        if (is_key(t, KEYS[i])) {
            return (int) i;
        }
    }
    return -1;
}

/*
 * The merge of AgentOptions.fromSources, built as it is read: the tokens of each source whose key no stronger source
 * gives, the sources that gave any in `*sources`; REFUSED at the first bad one, or (with *error NULL) where memory
 * runs short.
 */
static outcome build_merged(const char *const texts[SOURCE_COUNT], built *b, unsigned *sources, char **error) {
    start_building(b);
    unsigned long long keys_taken = 0;
    for (int source = 0; source < SOURCE_COUNT; source++) {
        unsigned long long keys_here = 0;
        token_reader reader = read_tokens(texts[source], source);
        token t;
        while (next_token(&reader, &t)) {
            int key = key_index(&t);
            unsigned long long bit = key < 0 ? 0 : 1ULL << key;
            /* A key that is none of them, were there one, goes to accept, which refuses it. */
            if (key < 0 || (keys_taken & bit) == 0) {
                if (accept(b, &t, error) == REFUSED) {
                    free_built(b);
                    return REFUSED;
                }
                keys_here |= bit;
                *sources |= 1u << source;
            }
        }
        keys_taken |= keys_here;
    }
    if (b->uncounted_warnings > 0) {
        char line[64];
        snprintf(line, sizeof line, "ignored %zu more clocks entries", b->uncounted_warnings);
        if (!add_text(&b->warnings, text_copy(line, strlen(line)))) {
            free_built(b);
            *error = NULL;
            return REFUSED;
        }
    }
    return ACCEPTED;
}

/* The strongest source with an enabled=false token, or OPTION_UNSET: checked before anything is judged. */
static int source_turning_off(const char *const texts[SOURCE_COUNT]) {
    for (int source = 0; source < SOURCE_COUNT; source++) {
        token_reader reader = read_tokens(texts[source], source);
        token t;
        while (next_token(&reader, &t)) {
            if (is_key(&t, ENABLED_KEY) && text_equals(t.value, t.value_length, "false")) {
                return source;
            }
        }
    }
    return OPTION_UNSET;
}

/*
 * AgentOptions.requested: whether the merged options say `key`=true, before they are judged: the strongest source that
 * gives the key gives its value.
 */
static int requested_by(const char *const texts[SOURCE_COUNT], const char *key) {
    for (int source = 0; source < SOURCE_COUNT; source++) {
        token_reader reader = read_tokens(texts[source], source);
        token t;
        int given = 0;
        int requested = 0;
        while (next_token(&reader, &t)) {
            if (is_key(&t, key)) {
                given = 1;
                requested |= text_equals(t.value, t.value_length, "true");
            }
        }
        if (given) {
            return requested;
        }
    }
    return 0;
}

/*
 * PackageSelection's clock methods: the library clocks unless libraryClocks=keep, then the own clocks, each once, in
 * storage of the options' own where there are any; 0 where memory runs short.
 */
static int clocks_in_force(agent_options *options) {
    size_t library = options->library_clocks == 0 ? COUNT(LIBRARY_CLOCK_METHODS) : 0;
    if (options->own_clocks.count == 0) {
        options->clocks.methods = library > 0 ? LIBRARY_CLOCK_METHODS : NULL;
        options->clocks.count = library;
        return 1;
    }
    clock_method *storage = calloc(library + options->own_clocks.count, sizeof *storage);
    options->clocks.withdrawn = calloc(1, sizeof *options->clocks.withdrawn);
    if (storage == NULL || options->clocks.withdrawn == NULL) {
        free(storage);
        return 0;
    }
    memcpy(storage, LIBRARY_CLOCK_METHODS, library * sizeof *storage);
    options->clock_storage = storage;
    size_t count = library;
    for (size_t i = 0; i < options->own_clocks.count; i++) {
        const char *dotted = options->own_clocks.texts[i];
        size_t owner_length = (size_t) (strrchr(dotted, '.') - dotted);
        char *owner = text_copy(dotted, owner_length);
        char *name = text_copy(dotted + owner_length + 1, strlen(dotted) - owner_length - 1);
        if (owner == NULL || name == NULL) {
            free(owner);
            free(name);
            options->clocks.methods = storage;
            options->clocks.count = count;
            return 0;
        }
        for (char *at = owner; *at != '\0'; at++) {
            *at = *at == '.' ? '/' : *at;
        }
        int known = 0;
        for (size_t j = 0; j < count && !known; j++) {
            known = strcmp(storage[j].owner, owner) == 0 && strcmp(storage[j].name, name) == 0;
        }
        if (known) {
            free(owner);
            free(name);
            continue;
        }
        storage[count].owner = owner;
        storage[count].name = name;
        storage[count].known_static = 0;
        count++;
    }
    options->clocks.methods = storage;
    options->clocks.count = count;
    return 1;
}

int parse_agent_options(const char *const sources[SOURCE_COUNT], agent_options *options, char **error,
                        int *strict_requested) {
    memset(options, 0, sizeof *options);
    *error = NULL;
    /* Read before anything is judged, as the one line enabled=false prints is silenced by quiet=true too. */
    options->quiet = requested_by(sources, QUIET_KEY);
    /* Before anything is judged: a kill switch that a typo elsewhere, or strict=true, could defeat is none. */
    options->off_by = source_turning_off(sources);
    *strict_requested = options->off_by == OPTION_UNSET && requested_by(sources, "strict");
    if (options->off_by != OPTION_UNSET) {
        return 1;
    }
    /* Each source on its own first: a bad option is reported even where a stronger source overrides its key. */
    for (int source = 0; source < SOURCE_COUNT; source++) {
        if (judge(sources[source], source, error) == REFUSED) {
            return 0;
        }
    }
    built b;
    if (build_merged(sources, &b, &options->sources, error) == REFUSED) {
        return 0;
    }
    /* strict=true asks that nothing be left out: an entry that would be is a bad option. */
    if (*strict_requested && b.warnings.count > 0) {
        *error = text_copy(b.warnings.texts[0], strlen(b.warnings.texts[0]));
        free_built(&b);
        return 0;
    }
    options->includes = b.includes;
    options->excludes = b.excludes;
    options->cached_instants = b.cached_instants;
    options->tick_nanos = b.tick_given ? b.tick_nanos : DEFAULT_TICK_NANOS;
    options->tick_text = b.tick_given ? text_copy(b.tick_text, b.tick_text_length) : text_copy("1ms", 3);
    options->wait = b.wait == OPTION_UNSET ? 0 : b.wait;
    options->cache = b.cache;
    options->library_clocks = b.library_clocks == OPTION_UNSET ? 0 : b.library_clocks;
    options->own_clocks = b.clocks;
    options->warnings = b.warnings;
    int clocks_ready = clocks_in_force(options);
    options->monotonic = b.monotonic == 1;
    options->verbose = b.verbose == 1;
    options->quiet = b.quiet == 1;
    options->strict = b.strict == 1;
    options->report = b.report == NULL ? NULL : text_copy(b.report, b.report_length);
    options->dry_run = b.dry_run == 1;
    options->jmx = b.jmx != 0;
    options->native_filter = b.native_filter;
    if (!clocks_ready || options->tick_text == NULL || (b.report != NULL && options->report == NULL)) {
        free_agent_options(options);
        return 0;
    }
    return 1;
}

size_t option_text_utf16(const char *text, uint16_t *units) {
    return text_utf16(text, strlen(text), units);
}

const char *turned_off_by(const agent_options *options) {
    return options->off_by == OPTION_UNSET ? NULL : SOURCE_NAMES[options->off_by];
}

void free_agent_options(agent_options *options) {
    free_prefixes(&options->includes);
    free_prefixes(&options->excludes);
    free_prefixes(&options->cached_instants);
    free_texts(&options->own_clocks);
    free_texts(&options->warnings);
    if (options->clock_storage != NULL) {
        /* The entries past the library clocks' are the own clocks', whose texts the storage holds. */
        size_t library = options->library_clocks == 0 ? COUNT(LIBRARY_CLOCK_METHODS) : 0;
        for (size_t i = library; i < options->clocks.count; i++) {
            free((char *) options->clock_storage[i].owner);
            free((char *) options->clock_storage[i].name);
        }
        free(options->clock_storage);
        options->clock_storage = NULL;
    }
    free(options->clocks.withdrawn);
    options->clocks.withdrawn = NULL;
    options->clocks.methods = NULL;
    options->clocks.count = 0;
    free(options->tick_text);
    free(options->report);
    options->tick_text = NULL;
    options->report = NULL;
}

/* PackageSelection.describe's half for one list: the prefixes as dotted names joined by ':'. */
static void append_packages(text_buffer *b, const package_prefixes *prefixes, const char *none) {
    if (prefixes->count == 0) {
        text_append(b, none);
        return;
    }
    for (size_t i = 0; i < prefixes->count; i++) {
        text_append(b, i == 0 ? "" : ":");
        const char *prefix = prefixes->prefixes[i];
        size_t length = strlen(prefix) - 1;
        for (size_t j = 0; j < length; j++) {
            text_append_bytes(b, prefix[j] == '/' ? "." : prefix + j, 1);
        }
    }
}

int caches_always(const agent_options *options) {
    return options->cache != OPTION_UNSET && strcmp(CACHE_SPELLINGS[options->cache], "always") == 0;
}

char *describe_agent_options(const agent_options *options) {
    text_buffer b = {0};
    text_append(&b, "tick=");
    text_append(&b, options->tick_text);
    text_append(&b, " wait=");
    text_append(&b, WAIT_SPELLINGS[options->wait]);
    if (options->cache != OPTION_UNSET) {
        text_append(&b, " cache=");
        text_append(&b, CACHE_SPELLINGS[options->cache]);
    }
    if (options->library_clocks != 0) {
        text_append(&b, " libraryClocks=");
        text_append(&b, LIBRARY_CLOCKS_SPELLINGS[options->library_clocks]);
    }
    text_append(&b, options->monotonic ? " monotonic=true" : "");
    text_append(&b, options->dry_run ? " dryRun=true" : "");
    if (options->native_filter != OPTION_UNSET) {
        text_append(&b, options->native_filter ? " nativeFilter=true" : " nativeFilter=false");
    }
    text_append(&b, " include=");
    append_packages(&b, &options->includes, "(all non-JDK classes)");
    text_append(&b, " exclude=");
    append_packages(&b, &options->excludes, "(none)");
    if (options->cached_instants.count > 0) {
        text_append(&b, " cachedInstants=");
        append_packages(&b, &options->cached_instants, "");
    }
    for (size_t i = 0; i < options->own_clocks.count; i++) {
        text_append(&b, i == 0 ? " clocks=" : ":");
        text_append(&b, options->own_clocks.texts[i]);
    }
    if (options->sources != 0 && options->sources != 1u << SOURCE_AGENT_ARGUMENTS) {
        text_append(&b, " (options from ");
        int first = 1;
        for (int source = 0; source < SOURCE_COUNT; source++) {
            if (options->sources & (1u << source)) {
                text_append(&b, first ? "" : ", ");
                text_append(&b, SOURCE_NAMES[source]);
                first = 0;
            }
        }
        text_append(&b, ")");
    }
    return text_finish(&b);
}
