/*
 * The constant-pool redirect of CallSiteRewriter.java, for the class-load hook (class_load_hook.c), which rewrites
 * with it from the first class in scope, so that no Java of the agent's runs on the JVM's startup path. Everything the
 * Java side would refuse or report, and every index it would check, leaves the class as it was instead, which the
 * Java rewriter would refuse or report; NativeRewriterParityTest holds the two to the same bytes, and the integration
 * tests run both (nativeFilter=false takes the Java rewriter).
 *
 * May include: call_site_rewriter.h.
 */
#include "call_site_rewriter.h"
#include "class_file_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0xCAFEBABEu
#define MAX_POOL_COUNT 0xFFFF
#define ACC_STATIC 0x0008

static const unsigned char ENTRY_SIZES[] = CONSTANT_POOL_ENTRY_SIZES;
static const unsigned char INSTRUCTION_SIZES[] = INSTRUCTION_LENGTHS;

enum { NO_MARK, MARK_METHOD_NAME, MARK_OWNER_NAME, MARK_DESCRIPTOR, MARK_TIME_OWNER, MARK_CLOCK_OWNER };

static const char METHOD_NAME[] = CLOCK_METHOD_NAME;
static const char OWNER_NAME[] = CLOCK_OWNER_NAME;
static const char DESCRIPTOR[] = CLOCK_DESCRIPTOR;
static const char TIME_PACKAGE_NAME[] = TIME_PACKAGE;
static const char CODE[] = CODE_ATTRIBUTE;

typedef struct {
    const char *owner;
    const char *name;
    const char *descriptor;
    /* The cached clock's method, by default and under cachedInstants; NULL where not redirected. */
    const char *target;
    const char *cached_instants_target;
} redirected_method;

static const redirected_method REDIRECTED[] = REDIRECTED_METHODS;
#define REDIRECTED_COUNT (sizeof REDIRECTED / sizeof REDIRECTED[0])

typedef struct {
    const unsigned char *bytes;
    size_t length;
    unsigned count;
    size_t *offsets;
    unsigned char *marks;
    size_t end;
    int names_time_owner;
    int names_clock_owner;
    const clock_methods *clocks;
} pool;

/* The Methodrefs a rewrite re-points, in pool order, and the method each goes to where its name changes. */
typedef struct {
    unsigned *methodrefs;
    const char **renamed_to;
    unsigned count;
} redirects;

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

static unsigned char mark_of(const pool *p, const unsigned char *text, unsigned length) {
    if (length == sizeof METHOD_NAME - 1 && memcmp(text, METHOD_NAME, length) == 0) {
        return MARK_METHOD_NAME;
    }
    if (length == sizeof OWNER_NAME - 1 && memcmp(text, OWNER_NAME, length) == 0) {
        return MARK_OWNER_NAME;
    }
    if (length == sizeof DESCRIPTOR - 1 && memcmp(text, DESCRIPTOR, length) == 0) {
        return MARK_DESCRIPTOR;
    }
    if (length > sizeof TIME_PACKAGE_NAME - 1 && memcmp(text, TIME_PACKAGE_NAME, sizeof TIME_PACKAGE_NAME - 1) == 0) {
        for (size_t i = 0; i < REDIRECTED_COUNT; i++) {
            if (strlen(REDIRECTED[i].owner) == length && memcmp(text, REDIRECTED[i].owner, length) == 0) {
                return MARK_TIME_OWNER;
            }
        }
    }
    for (size_t i = 0; i < p->clocks->count; i++) {
        const char *owner = p->clocks->methods[i].owner;
        if (strlen(owner) == length && memcmp(text, owner, length) == 0) {
            return MARK_CLOCK_OWNER;
        }
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
            p->marks[index] = mark_of(p, p->bytes + position + 3, length);
            p->names_time_owner |= p->marks[index] == MARK_TIME_OWNER;
            p->names_clock_owner |= p->marks[index] == MARK_CLOCK_OWNER;
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
 * Marks the clock's Methodrefs in `chosen`; returns 0, or -1 where an index the Java side checks names no entry
 * (ConstantPool.methodrefsMarked).
 */
static int clock_methodrefs(const pool *p, const char **chosen) {
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
            chosen[index] = METHOD_NAME;
        }
    }
    return 0;
}

/* Whether the Utf8 entry an index read at `at` names holds exactly `text`; the index is known to name an entry. */
static int utf8_is(const pool *p, size_t at, const char *text) {
    size_t utf8 = entry(p, at);
    size_t length = strlen(text);
    return u2(p->bytes + utf8 + 1) == length && memcmp(p->bytes + utf8 + 3, text, length) == 0;
}

/*
 * The NameAndType of a Methodref whose owner's class name is marked `owner_mark`, with its name and descriptor, which
 * are Utf8 entries; 0 where it is of another owner or no NameAndType, -1 where the Java side would throw
 * (ConstantPool.methodrefsOwnedBy, CallSiteRewriter.timeTarget and clockMethodTarget) or might: a name or descriptor
 * that is not a Utf8 entry, which Java refuses only when it compares it.
 */
static int owned_by(const pool *p, size_t at, unsigned char owner_mark, size_t *owner, size_t *name_and_type,
                    size_t *name, size_t *descriptor) {
    *owner = entry(p, at + 1);
    if (*owner == 0) {
        return -1;
    }
    if (p->bytes[*owner] != TAG_CLASS) {
        return 0;
    }
    if (entry(p, *owner + 1) == 0) {
        return -1;
    }
    if (mark_at(p, *owner + 1) != owner_mark) {
        return 0;
    }
    *name_and_type = entry(p, at + 3);
    if (*name_and_type == 0) {
        return -1;
    }
    if (p->bytes[*name_and_type] != TAG_NAME_AND_TYPE) {
        return 0;
    }
    *name = entry(p, *name_and_type + 1);
    *descriptor = entry(p, *name_and_type + 3);
    if (*name == 0 || *descriptor == 0 || p->bytes[*name] != TAG_UTF8 || p->bytes[*descriptor] != TAG_UTF8) {
        return -1;
    }
    return 1;
}

/*
 * Marks in `chosen` the Methodrefs to redirected java.time methods, with the method each goes to; returns 0, or -1
 * as owned_by.
 */
static int time_methodrefs(const pool *p, int cached_instants, const char **chosen) {
    for (unsigned index = 1; index < p->count; index++) {
        size_t at = p->offsets[index];
        /* InstantSource.system() is an interface's static method. */
        if (at == 0 || (p->bytes[at] != TAG_METHODREF && p->bytes[at] != TAG_INTERFACE_METHODREF)) {
            continue;
        }
        size_t owner, name_and_type, name, descriptor;
        int owned = owned_by(p, at, MARK_TIME_OWNER, &owner, &name_and_type, &name, &descriptor);
        if (owned < 0) {
            return -1;
        }
        for (size_t i = 0; owned && i < REDIRECTED_COUNT; i++) {
            const char *target = cached_instants ? REDIRECTED[i].cached_instants_target : REDIRECTED[i].target;
            if (target != NULL && utf8_is(p, owner + 1, REDIRECTED[i].owner)
                    && utf8_is(p, name_and_type + 1, REDIRECTED[i].name)
                    && utf8_is(p, name_and_type + 3, REDIRECTED[i].descriptor)) {
                chosen[index] = target;
                break;
            }
        }
    }
    return 0;
}

/*
 * Marks in `chosen` the Methodrefs to the clock methods in force, which go to the clock method, and in `checked` those
 * of them not known to be static; 0, or -1 as owned_by.
 */
static int clock_method_methodrefs(const pool *p, const char **chosen, unsigned char *checked) {
    for (unsigned index = 1; index < p->count; index++) {
        size_t at = p->offsets[index];
        if (at == 0 || p->bytes[at] != TAG_METHODREF) {
            continue;
        }
        size_t owner, name_and_type, name, descriptor;
        int owned = owned_by(p, at, MARK_CLOCK_OWNER, &owner, &name_and_type, &name, &descriptor);
        if (owned < 0) {
            return -1;
        }
        for (size_t i = 0; owned && i < p->clocks->count; i++) {
            if (utf8_is(p, owner + 1, p->clocks->methods[i].owner)
                    && utf8_is(p, name_and_type + 1, p->clocks->methods[i].name)
                    && utf8_is(p, name_and_type + 3, DESCRIPTOR)) {
                int withdrawn = p->clocks->withdrawn != NULL && i < 64
                        && (__atomic_load_n(p->clocks->withdrawn, __ATOMIC_RELAXED) >> i & 1);
                chosen[index] = withdrawn ? NULL : METHOD_NAME;
                checked[index] = !withdrawn && !p->clocks->methods[i].known_static;
                break;
            }
        }
    }
    return 0;
}

static size_t skip_members(const pool *p, size_t position);

/* Bytecode.checkedLength: a switch's length, or 0 where Java would throw. */
static size_t switch_length(size_t pc, long long end) {
    return end <= (long long) pc || end > INT32_MAX ? 0 : (size_t) (end - (long long) pc);
}

/* Bytecode.instructionLength: the length of the instruction at pc, or 0 where Java would throw. */
static size_t instruction_length(const pool *p, size_t start, size_t pc) {
    unsigned opcode = p->bytes[start + pc];
    if (opcode < sizeof INSTRUCTION_SIZES && INSTRUCTION_SIZES[opcode] != 0) {
        return INSTRUCTION_SIZES[opcode];
    }
    /* Switch operands start at the next multiple of four, counted from the start of the code. */
    size_t operands = (pc + 4) & ~(size_t) 3;
    if (opcode == OP_TABLESWITCH) {
        if (!has(p, start + operands + 4, 8)) {
            return 0;
        }
        long long low = (int32_t) u4(p->bytes + start + operands + 4);
        long long high = (int32_t) u4(p->bytes + start + operands + 8);
        return switch_length(pc, (long long) operands + 12 + (high - low + 1) * 4);
    }
    if (opcode == OP_LOOKUPSWITCH) {
        if (!has(p, start + operands + 4, 4)) {
            return 0;
        }
        long long pairs = (int32_t) u4(p->bytes + start + operands + 4);
        return switch_length(pc, (long long) operands + 8 + pairs * 8);
    }
    if (opcode == OP_WIDE) {
        return !has(p, start + pc + 1, 1) ? 0 : p->bytes[start + pc + 1] == OP_IINC ? 6 : 4;
    }
    return 0;
}

/* StaticUses.clearNonStatic: 0, or -1 where Java would throw. */
static int clear_non_static(const pool *p, size_t start, size_t length, unsigned char *candidates) {
    size_t pc = 0;
    while (pc < length) {
        unsigned opcode = p->bytes[start + pc];
        if (opcode == OP_INVOKEVIRTUAL || opcode == OP_INVOKESPECIAL || opcode == OP_INVOKEINTERFACE) {
            if (!has(p, start + pc + 1, 2)) {
                return -1;
            }
            unsigned index = u2(p->bytes + start + pc + 1);
            if (index < p->count) {
                candidates[index] = 0;
            }
        }
        size_t step = instruction_length(p, start, pc);
        if (step == 0) {
            return -1;
        }
        pc += step;
    }
    return pc == length ? 0 : -1;
}

/*
 * StaticUses.keepStaticOnly, check for check: clears in `candidates` each Methodref the class uses otherwise than
 * statically (an invokevirtual, invokespecial or invokeinterface of it, or a method handle of another kind than
 * REF_invokeStatic); 0, or -1 where Java would throw. Where the Java side steps over the class's layout with
 * ClassFileCursor, each read here is checked to lie inside the class file, as its reads are.
 */
static int keep_static_only(const pool *p, unsigned char *candidates) {
    for (unsigned index = 1; index < p->count; index++) {
        size_t at = p->offsets[index];
        if (at != 0 && p->bytes[at] == TAG_METHOD_HANDLE) {
            unsigned referenced = u2(p->bytes + at + 2);
            if (referenced < p->count && candidates[referenced] && p->bytes[at + 1] != REF_INVOKE_STATIC) {
                candidates[referenced] = 0;
            }
        }
    }
    size_t interfaces = p->end + 6;
    if (!has(p, interfaces, 2)) {
        return -1;
    }
    size_t position = skip_members(p, interfaces + 2 + 2 * (size_t) u2(p->bytes + interfaces));
    if (position == 0 || !has(p, position, 2)) {
        return -1;
    }
    unsigned methods = u2(p->bytes + position);
    position += 2;
    for (unsigned method = 0; method < methods; method++) {
        if (!has(p, position + 6, 2)) {
            return -1;
        }
        unsigned attributes = u2(p->bytes + position + 6);
        position += 8;
        for (unsigned attribute = 0; attribute < attributes; attribute++) {
            if (!has(p, position + 2, 4)) {
                return -1;
            }
            unsigned long length = u4(p->bytes + position + 2);
            size_t name = entry(p, position);
            if (length > 0x7FFFFFFFul || !has(p, position + 6, length) || name == 0 || p->bytes[name] != TAG_UTF8) {
                return -1;
            }
            if (utf8_is(p, position, CODE)) {
                if (!has(p, position + 10, 4)) {
                    return -1;
                }
                unsigned long code_length = u4(p->bytes + position + 10);
                if (code_length > 0x7FFFFFFFul || !has(p, position + 14, code_length)
                        || clear_non_static(p, position + 14, code_length, candidates) != 0) {
                    return -1;
                }
            }
            position += 6 + length;
        }
    }
    return 0;
}

/* Drops from `chosen` the Methodrefs marked `checked` that the class uses otherwise than statically; 0 or -1. */
static int keep_static_clock_methods(const pool *p, const char **chosen, const unsigned char *checked) {
    unsigned char *static_only = malloc(p->count + 1);
    if (static_only == NULL) {
        return -1;
    }
    memcpy(static_only, checked, p->count + 1);
    int outcome = keep_static_only(p, static_only);
    for (unsigned index = 1; index < p->count && outcome == 0; index++) {
        if (checked[index] && !static_only[index]) {
            chosen[index] = NULL;
        }
    }
    free(static_only);
    return outcome;
}

/*
 * The Methodrefs to re-point, in pool order, with the name each goes to where it changes (NULL where it keeps its
 * own); -1 where the Java side would throw or might.
 */
static int find_redirects(const pool *p, int cached_instants, redirects *found) {
    const char **chosen = calloc(p->count + 1, sizeof *chosen);
    unsigned char *checked = calloc(p->count + 1, 1);
    if (chosen == NULL || checked == NULL) {
        free(chosen);
        free(checked);
        return -1;
    }
    int outcome = clock_methodrefs(p, chosen);
    if (outcome == 0 && p->names_time_owner) {
        outcome = time_methodrefs(p, cached_instants, chosen);
    }
    if (outcome == 0 && p->names_clock_owner) {
        outcome = clock_method_methodrefs(p, chosen, checked);
    }
    int any_checked = 0;
    for (unsigned index = 1; index < p->count && !any_checked; index++) {
        any_checked = checked[index];
    }
    if (outcome == 0 && any_checked) {
        outcome = keep_static_clock_methods(p, chosen, checked);
    }
    free(checked);
    found->count = 0;
    for (unsigned index = 1; index < p->count && outcome == 0; index++) {
        if (chosen[index] == NULL) {
            continue;
        }
        size_t name_and_type = p->offsets[index] + 3;
        found->methodrefs[found->count] = index;
        found->renamed_to[found->count++] = utf8_is(p, entry(p, name_and_type) + 1, chosen[index]) ? NULL
                : chosen[index];
    }
    free(chosen);
    return outcome;
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

static unsigned char *append_utf8(unsigned char *at, const char *text) {
    size_t length = strlen(text);
    at[0] = TAG_UTF8;
    put_u2(at + 1, (unsigned) length);
    memcpy(at + 3, text, length);
    return at + 3 + length;
}

/*
 * CallSiteRewriter.patch, byte for byte: the target class, then for each renamed redirect in pool order its name
 * (once per name) and a NameAndType of it with the original descriptor; the Methodrefs re-pointed at them.
 */
static rewrite_outcome patch(const pool *p, const redirects *found, const char *target, class_allocator allocate,
                             void *context, jint *new_length, unsigned char **new_bytes) {
    /* Where each renamed redirect's name goes: a new entry, or the one made for an earlier redirect of that name. */
    unsigned *name_index = calloc(found->count + 1, sizeof *name_index);
    if (name_index == NULL) {
        return REWRITE_LEFT_TO_JAVA;
    }
    size_t added = 3 + strlen(target) + 3;
    unsigned next = p->count + 2;
    for (unsigned n = 0; n < found->count; n++) {
        const char *renamed = found->renamed_to[n];
        if (renamed == NULL) {
            continue;
        }
        for (unsigned m = 0; m < n && name_index[n] == 0; m++) {
            if (found->renamed_to[m] != NULL && strcmp(found->renamed_to[m], renamed) == 0) {
                name_index[n] = name_index[m];
            }
        }
        if (name_index[n] == 0) {
            name_index[n] = next++;
            added += 3 + strlen(renamed);
        }
        next++;
        added += 5;
    }
    unsigned char *patched = next > MAX_POOL_COUNT || p->length > (size_t) INT32_MAX - added ? NULL
            : allocate(context, p->length + added);
    if (patched == NULL) {
        free(name_index);
        return REWRITE_LEFT_TO_JAVA;
    }
    memcpy(patched, p->bytes, p->end);
    unsigned char *at = append_utf8(patched + p->end, target);
    at[0] = TAG_CLASS;
    put_u2(at + 1, p->count);
    at += 3;
    unsigned index = p->count + 2;
    for (unsigned n = 0; n < found->count; n++) {
        size_t methodref = p->offsets[found->methodrefs[n]];
        /* The target is a class: an InterfaceMethodref to an interface's static method becomes a Methodref. */
        patched[methodref] = TAG_METHODREF;
        put_u2(patched + methodref + 1, p->count + 1);
        if (found->renamed_to[n] == NULL) {
            continue;
        }
        if (name_index[n] == index) {
            at = append_utf8(at, found->renamed_to[n]);
            index++;
        }
        at[0] = TAG_NAME_AND_TYPE;
        put_u2(at + 1, name_index[n]);
        memcpy(at + 3, p->bytes + entry(p, methodref + 3) + 3, 2);
        at += 5;
        put_u2(patched + methodref + 3, index++);
    }
    free(name_index);
    memcpy(patched + p->end + added, p->bytes + p->end, p->length - p->end);
    put_u2(patched + 8, next);
    *new_length = (jint) (p->length + added);
    *new_bytes = patched;
    return REWRITE_DONE;
}

static unsigned char *heap_allocate(void *context, size_t size) {
    (void) context;
    return malloc(size);
}

int keeps_instant_reads(const unsigned char *bytes, jint length, const char *target_internal_name,
                        const clock_methods *clocks) {
    jint rewritten_length = 0;
    unsigned char *rewritten = NULL;
    rewrite_outcome outcome = rewrite_call_sites(bytes, length, target_internal_name, 1, clocks, heap_allocate, NULL,
                                                 &rewritten_length, &rewritten);
    free(rewritten);
    return outcome == REWRITE_DONE;
}

rewrite_outcome rewrite_call_sites(const unsigned char *bytes, jint length, const char *target_internal_name,
                                   int cached_instants, const clock_methods *clocks, class_allocator allocate,
                                   void *context, jint *new_length, unsigned char **new_bytes) {
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
    pool p = {bytes, (size_t) length, u2(bytes + 8), NULL, NULL, 0, 0, 0, clocks};
    p.offsets = calloc(p.count + 1, sizeof *p.offsets);
    p.marks = calloc(p.count + 1, 1);
    redirects found = {calloc(p.count + 1, sizeof *found.methodrefs), calloc(p.count + 1, sizeof *found.renamed_to),
                       0};
    rewrite_outcome outcome = REWRITE_LEFT_TO_JAVA;
    if (p.offsets != NULL && p.marks != NULL && found.methodrefs != NULL && found.renamed_to != NULL && walk(&p)
            && find_redirects(&p, cached_instants, &found) == 0) {
        if (found.count == 0) {
            outcome = REWRITE_NOT_NEEDED;
        } else if (layout_complete(&p)) {
            outcome = patch(&p, &found, target_internal_name, allocate, context, new_length, new_bytes);
        }
    }
    free(p.offsets);
    free(p.marks);
    free(found.methodrefs);
    free(found.renamed_to);
    return outcome;
}

/* Whether the index read at `at` names a Utf8 entry that holds exactly `text`. */
static int names_utf8(const pool *p, size_t at, const char *text) {
    size_t utf8 = entry(p, at);
    return utf8 != 0 && p->bytes[utf8] == TAG_UTF8 && utf8_is(p, at, text);
}

int declares_static_clock_method(const unsigned char *bytes, jint length, const char *name) {
    if (length < 10 || u4(bytes) != MAGIC) {
        return 1;
    }
    clock_methods none = {NULL, 0, NULL};
    pool p = {bytes, (size_t) length, u2(bytes + 8), NULL, NULL, 0, 0, 0, &none};
    p.offsets = calloc(p.count + 1, sizeof *p.offsets);
    p.marks = calloc(p.count + 1, 1);
    int declares = 1;
    if (p.offsets != NULL && p.marks != NULL && walk(&p) && has(&p, p.end + 6, 2)) {
        size_t position = skip_members(&p, p.end + 8 + 2 * (size_t) u2(p.bytes + p.end + 6));
        if (position != 0 && has(&p, position, 2)) {
            unsigned methods = u2(p.bytes + position);
            position += 2;
            declares = 0;
            for (unsigned method = 0; method < methods && !declares && position != 0; method++) {
                if (!has(&p, position, 8)) {
                    declares = 1;
                    break;
                }
                declares = (u2(p.bytes + position) & ACC_STATIC) != 0 && names_utf8(&p, position + 2, name)
                        && names_utf8(&p, position + 4, DESCRIPTOR);
                position = skip_attributes(&p, position + 6);
            }
            declares = declares || position == 0;
        }
    }
    free(p.offsets);
    free(p.marks);
    return declares;
}
