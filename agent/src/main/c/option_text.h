/*
 * Option text read as Java's String and Character read it, for the option grammar (agent_options.c) alone, which must
 * judge every text as the Java parser does: UTF-8 taken one UTF-16 code unit at a time, the Java character classes
 * the grammar asks about, String.isBlank and String.trim, the growable text the grammar's messages are written into,
 * and OptionToken.split's key=value tokens. Internal to the option parser; entry points include agent_options.h.
 */
#ifndef CLOCK_AGENT_OPTION_TEXT_H
#define CLOCK_AGENT_OPTION_TEXT_H

#include <stddef.h>

/*
 * The next character of UTF-8 text, as the UTF-16 code unit Java would see first: a character beyond the Basic
 * Multilingual Plane comes back as its high surrogate and counts two units. A malformed byte is U+FFFD.
 */
unsigned next_code_unit(const char **at, const char *end, int *units);

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

/* One key=value token, as OptionToken holds it. */
typedef struct {
    /* NULL when the token is empty or has no '=' after a key. */
    char *key;
    char *value;
    char *text;
    /* The source it came from, as agent_options.h numbers them. */
    int source;
} token;

typedef struct {
    token *tokens;
    size_t count;
} token_list;

void free_tokens(token_list *list);

/* Appends a token of copies of the texts (key may be NULL); 0 if memory ran short (free_tokens frees what was made). */
int add_token(token_list *list, const char *key, size_t key_length, const char *value, size_t value_length,
              const char *text, size_t text_length, int source);

/* OptionToken.split of one source's text (NULL for none) into `tokens`; 0 if memory ran short. */
int split_options(const char *options, int source, token_list *tokens);

#endif
