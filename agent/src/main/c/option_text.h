/*
 * Option text read as Java's String and Character read it, for the option grammar (agent_options.c) alone, which must
 * judge every text as the Java parser does: UTF-8 taken one UTF-16 code unit at a time, the Java character classes
 * the grammar asks about, String.isBlank and String.trim, the growable text the grammar's messages are written into,
 * OptionToken.excerpt of a long text, and OptionToken.split's key=value tokens. Internal to the option parser; entry
 * points include agent_options.h.
 */
#ifndef CLOCK_AGENT_OPTION_TEXT_H
#define CLOCK_AGENT_OPTION_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The next character of UTF-8 text, as the UTF-16 code unit Java would see first: a character beyond the Basic
 * Multilingual Plane comes back as its high surrogate and counts two units. A malformed byte is U+FFFD.
 */
unsigned next_code_unit(const char **at, const char *end, int *units);

/*
 * The text as UTF-16 code units, as the grammar reads it, into `units`, which has room for `length` of them (a text
 * never has more units than bytes); returns how many.
 */
size_t text_utf16(const char *text, size_t length, uint16_t *units);

/* Character.isJavaIdentifierStart and Character.isJavaIdentifierPart of one code unit. */
int is_java_identifier_start(unsigned unit);
int is_java_identifier_part(unsigned unit);

/* The value of a code unit that is a decimal digit of any script, as Long.parseLong reads it, or -1. */
int decimal_digit(unsigned unit);

/* String.isBlank: empty, or whitespace only (no character beyond the BMP is whitespace). */
int text_is_blank(const char *text, size_t length);

/* String.trim, narrowing the text in place. */
void text_trim(const char **text, size_t *length);

/* A NUL-terminated copy (free it), or NULL if memory runs short. */
char *text_copy(const char *text, size_t length);

/* Whether the text is exactly the literal. */
int text_equals(const char *text, size_t length, const char *literal);

/* A growable text, {0} when empty; after a failed allocation it stays failed and appends nothing. */
typedef struct {
    char *text;
    size_t length;
    size_t capacity;
    int failed;
} text_buffer;

void text_append_bytes(text_buffer *b, const char *text, size_t length);
void text_append(text_buffer *b, const char *text);

/* The finished text, or NULL if an allocation failed; the buffer is given up either way. */
char *text_finish(text_buffer *b);

/*
 * One key=value token, as OptionToken holds it: spans of its source's text, which stays the one copy, so that a long
 * option string costs no more than itself however many tokens it holds.
 */
typedef struct {
    /* NULL when the token is empty or has no '=' after a key. */
    const char *key;
    size_t key_length;
    const char *value;
    size_t value_length;
    /* The token as written; for an empty one, its whole source, as OptionToken quotes it. */
    const char *text;
    size_t text_length;
    /* The source it came from, as agent_options.h numbers them. */
    int source;
} token;

/* OptionToken.split of one source's text, read one token at a time. */
typedef struct {
    const char *options;
    size_t length;
    /* Where the next token starts; past the end once every token was read. */
    size_t next;
    int source;
} token_reader;

/* A reader of the tokens of `options` (NULL for none), which must outlive it. */
token_reader read_tokens(const char *options, int source);

/* The next token into `t`, or 0 when there is none. */
int next_token(token_reader *reader, token *t);

/* The text as an error line quotes it: whole up to QUOTED_MOST code units, else its first ones and its length. */
void text_append_excerpt(text_buffer *b, const char *text, size_t length);

#endif
