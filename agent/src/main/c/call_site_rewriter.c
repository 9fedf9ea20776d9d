/*
 * The constant-pool redirect of CallSiteRewriter.java, for the native class filter, which rewrites classes itself
 * once it has taken over, so that the JVM's start-up does not wait for the Java rewriter to run interpreted and be
 * compiled. Everything the Java side would refuse or report, and every index it would check, leaves the class to
 * Java instead, which then refuses or reports it as before; the integration tests run both (nativeFilter=false takes
 * the Java rewriter).
 */
#include "call_site_rewriter.h"
#include "class_file_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0xCAFEBABEu
#define MAX_POOL_COUNT 0xFFFF

static const unsigned char ENTRY_SIZES[] = CONSTANT_POOL_ENTRY_SIZES;

enum { NO_MARK, MARK_METHOD_NAME, MARK_OWNER_NAME, MARK_DESCRIPTOR };

static const char METHOD_NAME[] = CLOCK_METHOD_NAME;
static const char OWNER_NAME[] = CLOCK_OWNER_NAME;
static const char DESCRIPTOR[] = CLOCK_DESCRIPTOR;

typedef struct {
    const unsigned char *bytes;
    size_t length;
    unsigned count;
    size_t *offsets;
    unsigned char *marks;
    size_t end;
} pool;

static unsigned u2(const unsigned char *at) {
    return (unsigned) at[0] << 8 | at[1];
}

static unsigned long u4(const unsigned char *at) {
    return (unsigned long) u2(at) << 16 | u2(at + 2);
}

static void put_u2(unsigned char *at, unsigned value) {
    at[0] = (unsigned char) (value >> 8);
    at[1] = (unsigned char) value;
}

static int has(const pool *p, size_t position, size_t needed) {
    return position <= p->length && needed <= p->length - position;
}

static unsigned char mark_of(const unsigned char *text, unsigned length) {
    if (length == sizeof METHOD_NAME - 1 && memcmp(text, METHOD_NAME, length) == 0) {
        return MARK_METHOD_NAME;
    }
    if (length == sizeof OWNER_NAME - 1 && memcmp(text, OWNER_NAME, length) == 0) {
        return MARK_OWNER_NAME;
    }
    if (length == sizeof DESCRIPTOR - 1 && memcmp(text, DESCRIPTOR, length) == 0) {
        return MARK_DESCRIPTOR;
    }
    return NO_MARK;
}

/* Records where each entry starts and marks the three names; 0 if the pool is not one the Java side reads. */
static int walk(pool *p) {
    size_t position = 10;
    for (unsigned index = 1; index < p->count; index++) {
        if (!has(p, position, 1)) {
            return 0;
        }
        unsigned tag = p->bytes[position];
        size_t size = tag < sizeof ENTRY_SIZES ? ENTRY_SIZES[tag] : 0;
        if (size == 0) {
            return 0;
        }
        p->offsets[index] = position;
        if (tag == TAG_UTF8) {
            if (!has(p, position, 3)) {
                return 0;
            }
            unsigned length = u2(p->bytes + position + 1);
            if (!has(p, position + 3, length)) {
                return 0;
            }
            p->marks[index] = mark_of(p->bytes + position + 3, length);
            size += length;
        } else if (size == WIDE_ENTRY_SIZE) {
            index++;
        }
        position += size;
    }
    if (position > p->length) {
        return 0;
    }
    p->end = position;
    return 1;
}

/* The entry an index read at `at` names, or 0 where the Java side would throw. */
static size_t entry(const pool *p, size_t at) {
    unsigned index = u2(p->bytes + at);
    return index >= 1 && index < p->count ? p->offsets[index] : 0;
}

static unsigned char mark_at(const pool *p, size_t at) {
    unsigned index = u2(p->bytes + at);
    return index >= 1 && index < p->count && p->offsets[index] != 0 ? p->marks[index] : NO_MARK;
}

/*
 * Collects the clock's Methodrefs into `found`; returns their number, or -1 where an index the Java side checks
 * names no entry.
 */
static int clock_methodrefs(const pool *p, unsigned *found) {
    int count = 0;
    for (unsigned index = 1; index < p->count; index++) {
        size_t at = p->offsets[index];
        if (at == 0 || p->bytes[at] != TAG_METHODREF) {
            continue;
        }
        size_t name_and_type = entry(p, at + 3);
        if (name_and_type == 0) {
            return -1;
        }
        if (p->bytes[name_and_type] != TAG_NAME_AND_TYPE) {
            continue;
        }
        if (entry(p, name_and_type + 1) == 0) {
            return -1;
        }
        if (mark_at(p, name_and_type + 1) != MARK_METHOD_NAME) {
            continue;
        }
        size_t owner = entry(p, at + 1);
        if (owner == 0) {
            return -1;
        }
        if (p->bytes[owner] != TAG_CLASS) {
            continue;
        }
        if (entry(p, owner + 1) == 0 || entry(p, name_and_type + 3) == 0) {
            return -1;
        }
        if (mark_at(p, owner + 1) == MARK_OWNER_NAME && mark_at(p, name_and_type + 3) == MARK_DESCRIPTOR) {
            found[count++] = index;
        }
    }
    return count;
}

/* Where the attributes starting at `position` end, or 0 past the end of the class file. */
static size_t skip_attributes(const pool *p, size_t position) {
    if (!has(p, position, 2)) {
        return 0;
    }
    unsigned attributes = u2(p->bytes + position);
    position += 2;
    for (unsigned attribute = 0; attribute < attributes; attribute++) {
        if (!has(p, position + 2, 4)) {
            return 0;
        }
        unsigned long length = u4(p->bytes + position + 2);
        if (length > 0x7FFFFFFFul || !has(p, position + 6, length)) {
            return 0;
        }
        position += 6 + length;
    }
    return position;
}

static size_t skip_members(const pool *p, size_t position) {
    if (!has(p, position, 2)) {
        return 0;
    }
    unsigned members = u2(p->bytes + position);
    position += 2;
    for (unsigned member = 0; member < members && position != 0; member++) {
        position = skip_attributes(p, position + 6);
    }
    return position;
}

/* The Java side checks the layout after the pool to its end before rewriting, so that a truncated class is refused. */
static int layout_complete(const pool *p) {
    size_t interfaces = p->end + 6;
    if (!has(p, interfaces, 2)) {
        return 0;
    }
    size_t fields = interfaces + 2 + 2 * (size_t) u2(p->bytes + interfaces);
    size_t methods = skip_members(p, fields);
    size_t attributes = methods == 0 ? 0 : skip_members(p, methods);
    return attributes != 0 && skip_attributes(p, attributes) != 0;
}

static rewrite_outcome patch(const pool *p, const unsigned *methodrefs, int methodref_count, const char *target,
                             class_allocator allocate, void *context, jint *new_length, unsigned char **new_bytes) {
    size_t target_length = strlen(target);
    size_t added = 3 + target_length + 3;
    if (p->count + 2 > MAX_POOL_COUNT || p->length > (size_t) INT32_MAX - added) {
        return REWRITE_LEFT_TO_JAVA;
    }
    unsigned char *patched = allocate(context, p->length + added);
    if (patched == NULL) {
        return REWRITE_LEFT_TO_JAVA;
    }
    memcpy(patched, p->bytes, p->end);
    unsigned char *at = patched + p->end;
    at[0] = TAG_UTF8;
    put_u2(at + 1, (unsigned) target_length);
    memcpy(at + 3, target, target_length);
    at += 3 + target_length;
    at[0] = TAG_CLASS;
    put_u2(at + 1, p->count);
    memcpy(patched + p->end + added, p->bytes + p->end, p->length - p->end);
    put_u2(patched + 8, p->count + 2);
    for (int i = 0; i < methodref_count; i++) {
        put_u2(patched + p->offsets[methodrefs[i]] + 1, p->count + 1);
    }
    *new_length = (jint) (p->length + added);
    *new_bytes = patched;
    return REWRITE_DONE;
}

rewrite_outcome rewrite_call_sites(const unsigned char *bytes, jint length, const char *target_internal_name,
                                   class_allocator allocate, void *context, jint *new_length,
                                   unsigned char **new_bytes) {
    if (length < 10 || u4(bytes) != MAGIC) {
        return REWRITE_LEFT_TO_JAVA;
    }
    /*
     * No upper bound, as in Java: a class file newer than the newest format known is rewritten when its pool holds
     * only known tags, and walk() leaves any other to Java, which refuses and reports it.
     */
    if (u2(bytes + 6) < MIN_MAJOR_VERSION) {
        return REWRITE_LEFT_TO_JAVA;
    }
    pool p = {bytes, (size_t) length, u2(bytes + 8), NULL, NULL, 0};
    p.offsets = calloc(p.count + 1, sizeof *p.offsets);
    p.marks = calloc(p.count + 1, 1);
    unsigned *methodrefs = calloc(p.count + 1, sizeof *methodrefs);
    rewrite_outcome outcome = REWRITE_LEFT_TO_JAVA;
    if (p.offsets != NULL && p.marks != NULL && methodrefs != NULL && walk(&p)) {
        int methodref_count = clock_methodrefs(&p, methodrefs);
        if (methodref_count == 0) {
            outcome = REWRITE_NOT_NEEDED;
        } else if (methodref_count > 0 && layout_complete(&p)) {
            outcome = patch(&p, methodrefs, methodref_count, target_internal_name, allocate, context, new_length,
                            new_bytes);
        }
    }
    free(p.offsets);
    free(p.marks);
    free(methodrefs);
    return outcome;
}
