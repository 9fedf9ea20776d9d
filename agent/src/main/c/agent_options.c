/*
 * The option parser of agent_options.h. It follows the Java parser step by step (OptionToken.split, the merge in
 * AgentOptions.fromSources, AgentOptions.Builder, PackageNames, AgentOptions.parseTickNanos), including where Java
 * looks at UTF-16 code units: a character outside the Basic Multilingual Plane is two surrogates to it, which are
 * neither identifier characters, whitespace nor digits.
 */
#include "agent_options.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "option_grammar.h"

#define PACKAGE_FORMS "a package name such as com.acme, optionally ending in .* or .**, several joined by ':'"
#define TICK_FORMS "; tick takes a whole number with a unit ns, us, ms or s, from 1ms to 1s (for example tick=1ms)"
#define REPLACEMENT_CHARACTER 0xFFFDu

typedef struct {
    unsigned first;
    unsigned last;
} code_unit_range;

static const code_unit_range IDENTIFIER_STARTS[] = JAVA_IDENTIFIER_START_RANGES;
static const code_unit_range IDENTIFIER_PARTS[] = JAVA_IDENTIFIER_PART_RANGES;
static const code_unit_range WHITESPACE[] = JAVA_WHITESPACE_RANGES;
static const code_unit_range DIGITS[] = JAVA_DIGIT_RANGES;
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const char *const SOURCE_NAMES[SOURCE_COUNT] = {
    AGENT_ARGUMENTS_SOURCE, SYSTEM_PROPERTY_SOURCE, ENVIRONMENT_VARIABLE_SOURCE};
static const char *const WAIT_SPELLINGS[] = WAIT_VALUES;
static const char *const CACHE_SPELLINGS[] = CACHE_VALUES;
static const char *const IGNORED[] = IGNORED_PREFIXES_AND_REASONS;

/* Binary search over sorted, disjoint ranges. */
static int in_ranges(const code_unit_range *ranges, size_t count, unsigned unit) {
    size_t low = 0;
    size_t high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (unit < ranges[middle].first) {
            high = middle;
        } else if (unit > ranges[middle].last) {
            low = middle + 1;
        } else {
            return 1;
        }
    }
    return 0;
}

/*
 * The next character of UTF-8 text, as the UTF-16 code unit Java would see first: a character beyond the Basic
 * Multilingual Plane comes back as its high surrogate and counts two units. A malformed byte is U+FFFD.
 */
static unsigned next_unit(const char **at, const char *end, int *units) {
    const unsigned char *p = (const unsigned char *) *at;
    size_t left = (size_t) (end - *at);
    unsigned lead = p[0];
    unsigned code_point;
    size_t length;
    if (lead < 0x80) {
        code_point = lead;
        length = 1;
    } else if (lead >= 0xC2 && lead < 0xE0) {
        code_point = lead & 0x1Fu;
        length = 2;
    } else if (lead >= 0xE0 && lead < 0xF0) {
        code_point = lead & 0x0Fu;
        length = 3;
    } else if (lead >= 0xF0 && lead < 0xF5) {
        code_point = lead & 0x07u;
        length = 4;
    } else {
        *at += 1;
        *units = 1;
        return REPLACEMENT_CHARACTER;
    }
    if (length > left) {
        *at += 1;
        *units = 1;
        return REPLACEMENT_CHARACTER;
    }
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xC0u) != 0x80u) {
            *at += 1;
            *units = 1;
            return REPLACEMENT_CHARACTER;
        }
        code_point = (code_point << 6) | (p[i] & 0x3Fu);
    }
    static const unsigned SMALLEST[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code_point < SMALLEST[length] || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point < 0xE000)) {
        *at += 1;
        *units = 1;
        return REPLACEMENT_CHARACTER;
    }
    *at += length;
    if (code_point >= 0x10000) {
        *units = 2;
        return 0xD800u + ((code_point - 0x10000u) >> 10);
    }
    *units = 1;
    return code_point;
}

/* String.isBlank: empty, or whitespace only (no character beyond the BMP is whitespace). */
static int is_blank(const char *text, size_t length) {
    const char *at = text;
    const char *end = text + length;
    while (at < end) {
        int units;
        unsigned unit = next_unit(&at, end, &units);
        if (units != 1 || !in_ranges(WHITESPACE, COUNT(WHITESPACE), unit)) {
            return 0;
        }
    }
    return 1;
}

/* String.trim: every code unit up to U+0020 is one byte in UTF-8, and no byte of a longer sequence is one. */
static void trim(const char **text, size_t *length) {
    while (*length > 0 && (unsigned char) (*text)[0] <= ' ') {
        (*text)++;
        (*length)--;
    }
    while (*length > 0 && (unsigned char) (*text)[*length - 1] <= ' ') {
        (*length)--;
    }
}

static char *copy(const char *text, size_t length) {
    char *copied = malloc(length + 1);
    if (copied != NULL) {
        memcpy(copied, text, length);
        copied[length] = '\0';
    }
    return copied;
}

static int equals(const char *text, size_t length, const char *literal) {
    return strlen(literal) == length && memcmp(text, literal, length) == 0;
}

/* A growable text; after a failed allocation it stays failed and appends nothing. */
typedef struct {
    char *text;
    size_t length;
    size_t capacity;
    int failed;
} buffer;

static void append_bytes(buffer *b, const char *text, size_t length) {
    if (b->failed) {
        return;
    }
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = (b->length + length + 1) * 2;
        char *grown = realloc(b->text, capacity);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->text = grown;
        b->capacity = capacity;
    }
    memcpy(b->text + b->length, text, length);
    b->length += length;
    b->text[b->length] = '\0';
}

static void append(buffer *b, const char *text) {
    append_bytes(b, text, strlen(text));
}

/* The finished text, or NULL if an allocation failed; the buffer is given up either way. */
static char *finish(buffer *b) {
    if (b->failed || b->text == NULL) {
        free(b->text);
        return b->failed ? NULL : copy("", 0);
    }
    return b->text;
}

/* One key=value token, as OptionToken holds it. */
typedef struct {
    /* NULL when the token is empty or has no '=' after a key. */
    char *key;
    char *value;
    char *text;
    int source;
} token;

typedef struct {
    token *tokens;
    size_t count;
} token_list;

static void free_tokens(token_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->tokens[i].key);
        free(list->tokens[i].value);
        free(list->tokens[i].text);
    }
    free(list->tokens);
    list->tokens = NULL;
    list->count = 0;
}

static int add_token(token_list *list, const char *key, size_t key_length, const char *value, size_t value_length,
                     const char *text, size_t text_length, int source) {
    token *grown = realloc(list->tokens, (list->count + 1) * sizeof *grown);
    if (grown == NULL) {
        return 0;
    }
    list->tokens = grown;
    token *t = &list->tokens[list->count];
    t->key = key == NULL ? NULL : copy(key, key_length);
    t->value = copy(value, value_length);
    t->text = copy(text, text_length);
    t->source = source;
    list->count++;
    return (key == NULL || t->key != NULL) && t->value != NULL && t->text != NULL;
}

/* OptionToken.split: comma-separated, empty pieces kept, each split at its first '='. */
static int split(const char *options, int source, token_list *tokens) {
    if (options == NULL || is_blank(options, strlen(options))) {
        return 1;
    }
    const char *piece = options;
    for (;;) {
        const char *comma = strchr(piece, ',');
        size_t length = comma == NULL ? strlen(piece) : (size_t) (comma - piece);
        const char *equals_sign = memchr(piece, '=', length);
        int added;
        if (is_blank(piece, length)) {
            added = add_token(tokens, NULL, 0, "", 0, options, strlen(options), source);
        } else if (equals_sign == NULL || equals_sign == piece) {
            added = add_token(tokens, NULL, 0, "", 0, piece, length, source);
        } else {
            const char *key = piece;
            size_t key_length = (size_t) (equals_sign - piece);
            const char *value = equals_sign + 1;
            size_t value_length = length - key_length - 1;
            trim(&key, &key_length);
            trim(&value, &value_length);
            added = add_token(tokens, key, key_length, value, value_length, piece, length, source);
        }
        if (!added) {
            return 0;
        }
        if (comma == NULL) {
            return 1;
        }
        piece = comma + 1;
    }
}

/* OptionToken.quoted: the token as written, and its source unless it is the agent's own arguments. */
static void append_quoted(buffer *b, const token *t) {
    append(b, "'");
    append(b, t->text);
    append(b, "'");
    if (t->source != SOURCE_AGENT_ARGUMENTS) {
        append(b, " (from ");
        append(b, SOURCE_NAMES[t->source]);
        append(b, ")");
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
    int wait;
    int cache;
    int monotonic;
    int verbose;
    int strict;
    const char *report;
    int dry_run;
    int jmx;
    int native_filter;
    int enabled;
} built;

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

static outcome refuse(char **error, buffer *message) {
    *error = finish(message);
    return REFUSED;
}

/* "... in 'TOKEN' (from SOURCE)" + the rest, as most of the Java parser's messages read. */
static outcome refuse_token(char **error, const char *before, const token *t, const char *after) {
    buffer message = {0};
    append(&message, before);
    append_quoted(&message, t);
    append(&message, after);
    return refuse(error, &message);
}

static outcome require_once(const token *t, int given, char **error) {
    if (!given) {
        return ACCEPTED;
    }
    return refuse_token(error, "", t, " repeats an option that may be given only once (only include, exclude"
                                       " and cachedInstants repeat)");
}

static outcome boolean_value(const token *t, int *value, char **error) {
    if (strcmp(t->value, "true") == 0) {
        *value = 1;
        return ACCEPTED;
    }
    if (strcmp(t->value, "false") == 0) {
        *value = 0;
        return ACCEPTED;
    }
    return refuse_token(error, "bad value in ", t, "; valid values: true, false");
}

static outcome one_of(const token *t, const char *const *spellings, size_t count, int *value, char **error) {
    for (size_t i = 0; i < count; i++) {
        if (strcmp(t->value, spellings[i]) == 0) {
            *value = (int) i;
            return ACCEPTED;
        }
    }
    buffer message = {0};
    append(&message, "bad value in ");
    append_quoted(&message, t);
    append(&message, "; valid values: ");
    for (size_t i = 0; i < count; i++) {
        append(&message, i == 0 ? "" : ", ");
        append(&message, spellings[i]);
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
        unsigned unit = next_unit(&at, end, &units);
        const code_unit_range *ranges = part_start ? IDENTIFIER_STARTS : IDENTIFIER_PARTS;
        size_t count = part_start ? COUNT(IDENTIFIER_STARTS) : COUNT(IDENTIFIER_PARTS);
        /* A surrogate pair's units are never identifier characters. */
        if (units != 1 || !in_ranges(ranges, count, unit)) {
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
    if (t->value[0] == '\0') {
        return refuse_token(error, "empty package list in ", t, "; expected " PACKAGE_FORMS);
    }
    const char *raw = t->value;
    for (;;) {
        const char *colon = strchr(raw, ':');
        size_t raw_length = colon == NULL ? strlen(raw) : (size_t) (colon - raw);
        const char *name = raw;
        size_t length = raw_length;
        trim(&name, &length);
        if (ends_with(name, length, ".**")) {
            length -= 3;
        } else if (ends_with(name, length, ".*")) {
            length -= 2;
        }
        if (!is_package_name(name, length)) {
            buffer message = {0};
            append(&message, "bad package '");
            append_bytes(&message, raw, raw_length);
            append(&message, "' in ");
            append_quoted(&message, t);
            append(&message, "; expected " PACKAGE_FORMS);
            return refuse(error, &message);
        }
        char *prefix = malloc(length + 2);
        char **grown = realloc(prefixes->prefixes, (prefixes->count + 1) * sizeof *grown);
        if (prefix == NULL || grown == NULL) {
            free(prefix);
            if (grown != NULL) {
                prefixes->prefixes = grown;
            }
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
                buffer message = {0};
                append(&message, "package '");
                append_bytes(&message, raw, raw_length);
                append(&message, "' in ");
                append_quoted(&message, t);
                append(&message, " is never rewritten (");
                append(&message, IGNORED[i + 1]);
                append(&message, "); name your own packages instead");
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

/* AgentOptions.parseTickNanos: leading decimal digits of any script, as Long.parseLong reads them, then a unit. */
static outcome tick_nanos(const token *t, long long *nanos, char **error) {
    const char *at = t->value;
    const char *end = t->value + strlen(t->value);
    long long amount = 0;
    int digits = 0;
    while (at < end) {
        const char *before = at;
        int units;
        unsigned unit = next_unit(&at, end, &units);
        if (units != 1 || !in_ranges(DIGITS, COUNT(DIGITS), unit)) {
            at = before;
            break;
        }
        /* Each script's ten digits are consecutive code points, and the ranges hold whole sets of ten. */
        size_t low = 0;
        while (!(unit >= DIGITS[low].first && unit <= DIGITS[low].last)) {
            low++;
        }
        if (digits < 10) {
            amount = amount * 10 + (long long) ((unit - DIGITS[low].first) % 10u);
        }
        digits++;
    }
    if (digits == 0) {
        return refuse_token(error, "bad duration ", t, TICK_FORMS);
    }
    long long unit_nanos;
    size_t unit_length = (size_t) (end - at);
    if (equals(at, unit_length, "ns")) {
        unit_nanos = 1LL;
    } else if (equals(at, unit_length, "us")) {
        unit_nanos = 1000LL;
    } else if (equals(at, unit_length, "ms")) {
        unit_nanos = 1000000LL;
    } else if (equals(at, unit_length, "s")) {
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

static outcome accept(built *b, const token *t, char **error) {
    if (t->key == NULL) {
        if (is_blank(t->text, strlen(t->text)) || strchr(t->text, ',') != NULL) {
            return refuse_token(error, "empty option in ", t,
                                "; options are key=value pairs separated by single commas");
        }
        return refuse_token(error, "", t, " is not key=value; valid keys: " VALID_KEYS);
    }
    const char *key = t->key;
    if (strcmp(key, "include") == 0) {
        return package_names(t, &b->includes, error);
    }
    if (strcmp(key, "exclude") == 0) {
        return package_names(t, &b->excludes, error);
    }
    if (strcmp(key, "cachedInstants") == 0) {
        return package_names(t, &b->cached_instants, error);
    }
    if (strcmp(key, "tick") == 0) {
        if (require_once(t, b->tick_given, error) == REFUSED || tick_nanos(t, &b->tick_nanos, error) == REFUSED) {
            return REFUSED;
        }
        b->tick_given = 1;
        b->tick_text = t->value;
        return ACCEPTED;
    }
    if (strcmp(key, "wait") == 0) {
        return require_once(t, b->wait != OPTION_UNSET, error) == REFUSED ? REFUSED
                : one_of(t, WAIT_SPELLINGS, COUNT(WAIT_SPELLINGS), &b->wait, error);
    }
    if (strcmp(key, "cache") == 0) {
        return require_once(t, b->cache != OPTION_UNSET, error) == REFUSED ? REFUSED
                : one_of(t, CACHE_SPELLINGS, COUNT(CACHE_SPELLINGS), &b->cache, error);
    }
    if (strcmp(key, "report") == 0) {
        if (require_once(t, b->report != NULL, error) == REFUSED) {
            return REFUSED;
        }
        if (t->value[0] == '\0') {
            return refuse_token(error, "empty value in ", t,
                                "; valid values: summary, or the path of a JSON file to write at exit");
        }
        b->report = t->value;
        return ACCEPTED;
    }
    /* enabled comes here true or with a bad value: false turned the agent off before any token was judged. */
    static const char *const BOOLEAN_KEYS[] = {"monotonic", "verbose", "strict", "dryRun", "jmx", "nativeFilter",
                                               ENABLED_KEY};
    int *const boolean_values[] = {&b->monotonic, &b->verbose, &b->strict, &b->dry_run, &b->jmx, &b->native_filter,
                                   &b->enabled};
    for (size_t i = 0; i < COUNT(BOOLEAN_KEYS); i++) {
        if (strcmp(key, BOOLEAN_KEYS[i]) == 0) {
            return require_once(t, *boolean_values[i] != OPTION_UNSET, error) == REFUSED ? REFUSED
                    : boolean_value(t, boolean_values[i], error);
        }
    }
    buffer message = {0};
    append(&message, "unknown option '");
    append(&message, key);
    append(&message, "' in ");
    append_quoted(&message, t);
    append(&message, "; valid keys: " VALID_KEYS);
    return refuse(error, &message);
}

static outcome build(const token *tokens, size_t count, built *b, char **error) {
    memset(b, 0, sizeof *b);
    b->wait = b->cache = b->monotonic = b->verbose = b->strict = OPTION_UNSET;
    b->dry_run = b->jmx = b->native_filter = b->enabled = OPTION_UNSET;
    for (size_t i = 0; i < count; i++) {
        if (accept(b, &tokens[i], error) == REFUSED) {
            free_prefixes(&b->includes);
            free_prefixes(&b->excludes);
            free_prefixes(&b->cached_instants);
            return REFUSED;
        }
    }
    return ACCEPTED;
}

static int same_key(const char *a, const char *b) {
    return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* The strongest source with an enabled=false token, or OPTION_UNSET: checked before anything is judged. */
static int source_turning_off(const token_list by_source[SOURCE_COUNT]) {
    for (int source = 0; source < SOURCE_COUNT; source++) {
        for (size_t i = 0; i < by_source[source].count; i++) {
            const token *t = &by_source[source].tokens[i];
            if (t->key != NULL && strcmp(t->key, ENABLED_KEY) == 0 && strcmp(t->value, "false") == 0) {
                return source;
            }
        }
    }
    return OPTION_UNSET;
}

int parse_agent_options(const char *const sources[SOURCE_COUNT], agent_options *options, char **error,
                        int *strict_requested) {
    memset(options, 0, sizeof *options);
    options->off_by = OPTION_UNSET;
    *error = NULL;
    *strict_requested = 0;
    token_list by_source[SOURCE_COUNT] = {{0}};
    token_list merged = {0};
    int memory = 1;
    for (int source = 0; source < SOURCE_COUNT && memory; source++) {
        memory = split(sources[source], source, &by_source[source]);
    }
    /* Before anything is judged: a kill switch that a typo elsewhere, or strict=true, could defeat is none. */
    if (memory) {
        options->off_by = source_turning_off(by_source);
    }
    int off = options->off_by != OPTION_UNSET;
    int ok = off;
    for (int source = 0; source < SOURCE_COUNT && memory && !off; source++) {
        size_t taken_before = merged.count;
        for (size_t i = 0; i < by_source[source].count && memory; i++) {
            const token *t = &by_source[source].tokens[i];
            int taken = 0;
            /* Keys of stronger sources only: a source may repeat a key, which the builder then judges. */
            for (size_t j = 0; j < taken_before && !taken; j++) {
                taken = same_key(merged.tokens[j].key, t->key);
            }
            if (!taken) {
                memory = add_token(&merged, t->key, t->key == NULL ? 0 : strlen(t->key), t->value, strlen(t->value),
                                   t->text, strlen(t->text), source);
                options->sources |= 1u << source;
            }
        }
    }
    if (memory && !off) {
        for (size_t i = 0; i < merged.count; i++) {
            if (merged.tokens[i].key != NULL && strcmp(merged.tokens[i].key, "strict") == 0
                    && strcmp(merged.tokens[i].value, "true") == 0) {
                *strict_requested = 1;
            }
        }
        built b;
        /* Each source on its own first: a bad option is reported even where a stronger source overrides its key. */
        int refused = 0;
        for (int source = 0; source < SOURCE_COUNT && !refused; source++) {
            refused = build(by_source[source].tokens, by_source[source].count, &b, error) == REFUSED;
            if (!refused) {
                free_prefixes(&b.includes);
                free_prefixes(&b.excludes);
                free_prefixes(&b.cached_instants);
            }
        }
        if (!refused && build(merged.tokens, merged.count, &b, error) == ACCEPTED) {
            options->includes = b.includes;
            options->excludes = b.excludes;
            options->cached_instants = b.cached_instants;
            options->tick_nanos = b.tick_given ? b.tick_nanos : DEFAULT_TICK_NANOS;
            options->tick_text = copy(b.tick_given ? b.tick_text : "1ms", strlen(b.tick_given ? b.tick_text : "1ms"));
            options->wait = b.wait == OPTION_UNSET ? 0 : b.wait;
            options->cache = b.cache;
            options->monotonic = b.monotonic == 1;
            options->verbose = b.verbose == 1;
            options->strict = b.strict == 1;
            options->report = b.report == NULL ? NULL : copy(b.report, strlen(b.report));
            options->dry_run = b.dry_run == 1;
            options->jmx = b.jmx != 0;
            options->native_filter = b.native_filter;
            ok = options->tick_text != NULL && (b.report == NULL || options->report != NULL);
            if (!ok) {
                free_agent_options(options);
            }
        }
    }
    for (int source = 0; source < SOURCE_COUNT; source++) {
        free_tokens(&by_source[source]);
    }
    free_tokens(&merged);
    return ok;
}

const char *turned_off_by(const agent_options *options) {
    return options->off_by == OPTION_UNSET ? NULL : SOURCE_NAMES[options->off_by];
}

void free_agent_options(agent_options *options) {
    free_prefixes(&options->includes);
    free_prefixes(&options->excludes);
    free_prefixes(&options->cached_instants);
    free(options->tick_text);
    free(options->report);
    options->tick_text = NULL;
    options->report = NULL;
}

/* PackageSelection.describe's half for one list: the prefixes as dotted names joined by ':'. */
static void append_packages(buffer *b, const package_prefixes *prefixes, const char *none) {
    if (prefixes->count == 0) {
        append(b, none);
        return;
    }
    for (size_t i = 0; i < prefixes->count; i++) {
        append(b, i == 0 ? "" : ":");
        const char *prefix = prefixes->prefixes[i];
        size_t length = strlen(prefix) - 1;
        for (size_t j = 0; j < length; j++) {
            append_bytes(b, prefix[j] == '/' ? "." : prefix + j, 1);
        }
    }
}

int caches_always(const agent_options *options) {
    return options->cache != OPTION_UNSET && strcmp(CACHE_SPELLINGS[options->cache], "always") == 0;
}

char *describe_agent_options(const agent_options *options) {
    buffer b = {0};
    append(&b, "tick=");
    append(&b, options->tick_text);
    append(&b, " wait=");
    append(&b, WAIT_SPELLINGS[options->wait]);
    if (options->cache != OPTION_UNSET) {
        append(&b, " cache=");
        append(&b, CACHE_SPELLINGS[options->cache]);
    }
    append(&b, options->monotonic ? " monotonic=true" : "");
    append(&b, options->dry_run ? " dryRun=true" : "");
    if (options->native_filter != OPTION_UNSET) {
        append(&b, options->native_filter ? " nativeFilter=true" : " nativeFilter=false");
    }
    append(&b, " include=");
    append_packages(&b, &options->includes, "(all non-JDK classes)");
    append(&b, " exclude=");
    append_packages(&b, &options->excludes, "(none)");
    if (options->cached_instants.count > 0) {
        append(&b, " cachedInstants=");
        append_packages(&b, &options->cached_instants, "");
    }
    if (options->sources != 0 && options->sources != 1u << SOURCE_AGENT_ARGUMENTS) {
        append(&b, " (options from ");
        int first = 1;
        for (int source = 0; source < SOURCE_COUNT; source++) {
            if (options->sources & (1u << source)) {
                append(&b, first ? "" : ", ");
                append(&b, SOURCE_NAMES[source]);
                first = 0;
            }
        }
        append(&b, ")");
    }
    return finish(&b);
}
