/*
 * Option text read as the Java parser reads its String: UTF-8 taken one UTF-16 code unit at a time (a character
 * beyond the Basic Multilingual Plane is two surrogates to Java, which are neither identifier characters, whitespace
 * nor digits), the character classes of option_grammar.h that the grammar asks about, String.isBlank and String.trim,
 * the growable text its messages are written into, and OptionToken.split's tokens. Apart from the grammar
 * (agent_options.c) so that what C must do to see text as Java does sits in one place, and the grammar reads as the
 * Java parser does, step by step; only agent_options.c includes it.
 *
 * May include: option_text.h.
 */
#include "option_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "option_grammar.h"

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

int is_java_identifier_start(unsigned unit) {
    return in_ranges(IDENTIFIER_STARTS, COUNT(IDENTIFIER_STARTS), unit);
}

int is_java_identifier_part(unsigned unit) {
    return in_ranges(IDENTIFIER_PARTS, COUNT(IDENTIFIER_PARTS), unit);
}

int decimal_digit(unsigned unit) {
    if (!in_ranges(DIGITS, COUNT(DIGITS), unit)) {
        return -1;
    }
    /* Each script's ten digits are consecutive code points, and the ranges hold whole sets of ten. */
    size_t low = 0;
    while (!(unit >= DIGITS[low].first && unit <= DIGITS[low].last)) {
        low++;
    }
    return (int) ((unit - DIGITS[low].first) % 10u);
}

/* The next character of UTF-8 text as a code point, a malformed byte U+FFFD: as next_code_unit and text_utf16 read. */
static unsigned next_code_point(const char **at, const char *end) {
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
        return REPLACEMENT_CHARACTER;
    }
    if (length > left) {
        *at += 1;
        return REPLACEMENT_CHARACTER;
    }
    for (size_t i = 1; i < length; i++) {
        if ((p[i] & 0xC0u) != 0x80u) {
            *at += 1;
            return REPLACEMENT_CHARACTER;
        }
        code_point = (code_point << 6) | (p[i] & 0x3Fu);
    }
    static const unsigned SMALLEST[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code_point < SMALLEST[length] || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point < 0xE000)) {
        *at += 1;
        return REPLACEMENT_CHARACTER;
    }
    *at += length;
    return code_point;
}

unsigned next_code_unit(const char **at, const char *end, int *units) {
    unsigned code_point = next_code_point(at, end);
    *units = code_point >= 0x10000 ? 2 : 1;
    return code_point >= 0x10000 ? 0xD800u + ((code_point - 0x10000u) >> 10) : code_point;
}

size_t text_utf16(const char *text, size_t length, uint16_t *units) {
    const char *at = text;
    const char *end = text + length;
    size_t count = 0;
    while (at < end) {
        unsigned code_point = next_code_point(&at, end);
        if (code_point >= 0x10000) {
            units[count++] = (uint16_t) (0xD800u + ((code_point - 0x10000u) >> 10));
            units[count++] = (uint16_t) (0xDC00u + ((code_point - 0x10000u) & 0x3FFu));
        } else {
            units[count++] = (uint16_t) code_point;
        }
    }
    return count;
}

int text_is_blank(const char *text, size_t length) {
    const char *at = text;
    const char *end = text + length;
    while (at < end) {
        int units;
        unsigned unit = next_code_unit(&at, end, &units);
        if (units != 1 || !in_ranges(WHITESPACE, COUNT(WHITESPACE), unit)) {
            return 0;
        }
    }
    return 1;
}

/* String.trim: every code unit up to U+0020 is one byte in UTF-8, and no byte of a longer sequence is one. */
void text_trim(const char **text, size_t *length) {
    while (*length > 0 && (unsigned char) (*text)[0] <= ' ') {
        (*text)++;
        (*length)--;
    }
    while (*length > 0 && (unsigned char) (*text)[*length - 1] <= ' ') {
        (*length)--;
    }
}

char *text_copy(const char *text, size_t length) {
    char *copied = malloc(length + 1);
    if (copied != NULL) {
        memcpy(copied, text, length);
        copied[length] = '\0';
    }
    return copied;
}

int text_equals(const char *text, size_t length, const char *literal) {
    return strlen(literal) == length && memcmp(text, literal, length) == 0;
}

void text_append_bytes(text_buffer *b, const char *text, size_t length) {
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

void text_append(text_buffer *b, const char *text) {
    text_append_bytes(b, text, strlen(text));
}

char *text_finish(text_buffer *b) {
    if (b->failed || b->text == NULL) {
        free(b->text);
        return b->failed ? NULL : text_copy("", 0);
    }
    return b->text;
}

void text_append_excerpt(text_buffer *b, const char *text, size_t length) {
    const char *at = text;
    const char *end = text + length;
    const char *excerpt_end = NULL;
    size_t units = 0;
    while (at < end) {
        int character_units;
        (void) next_code_unit(&at, end, &character_units);
        units += (size_t) character_units;
        /* A surrogate pair that would straddle the cut is left out whole, as the Java side leaves it out. */
        if (units <= QUOTED_MOST) {
            excerpt_end = at;
        }
    }
    if (units <= QUOTED_MOST) {
        text_append_bytes(b, text, length);
        return;
    }
    char count[48];
    snprintf(count, sizeof count, "... (%zu characters)", units);
    text_append_bytes(b, text, excerpt_end == NULL ? 0 : (size_t) (excerpt_end - text));
    text_append(b, count);
}

token_reader read_tokens(const char *options, int source) {
    token_reader reader = {options, 0, 1, source};
    if (options != NULL) {
        reader.length = strlen(options);
        /* A blank text holds no token, as OptionToken.split finds none in it. */
        reader.next = text_is_blank(options, reader.length) ? reader.length + 1 : 0;
    }
    return reader;
}

/* OptionToken.split: comma-separated, empty pieces kept, each split at its first '='. */
int next_token(token_reader *reader, token *t) {
    if (reader->options == NULL || reader->next > reader->length) {
        return 0;
    }
    const char *piece = reader->options + reader->next;
    const char *comma = memchr(piece, ',', reader->length - reader->next);
    size_t length = comma == NULL ? reader->length - reader->next : (size_t) (comma - piece);
    reader->next += length + 1;
    const char *equals_sign = memchr(piece, '=', length);
    t->source = reader->source;
    t->key = NULL;
    t->key_length = 0;
    t->value = "";
    t->value_length = 0;
    t->text = piece;
    t->text_length = length;
    if (text_is_blank(piece, length)) {
        t->text = reader->options;
        t->text_length = reader->length;
    } else if (equals_sign != NULL && equals_sign != piece) {
        t->key = piece;
        t->key_length = (size_t) (equals_sign - piece);
        t->value = equals_sign + 1;
        t->value_length = length - t->key_length - 1;
        text_trim(&t->key, &t->key_length);
        text_trim(&t->value, &t->value_length);
    }
    return 1;
}
