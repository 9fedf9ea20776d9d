/*
 * The class-load hook's first look at a class file, made for every class in scope: a search of the raw bytes,
 * without parsing them, which turns most classes away before anything else reads them.
 *
 * May include: class_scan.h.
 */
#define _GNU_SOURCE
#include "class_scan.h"
#include "class_file_format.h"

#include <string.h>

/*
 * Every use of System.currentTimeMillis goes through a constant-pool Utf8 entry holding this name, every use of a
 * redirected java.time method through one holding its class's name, which starts with the package's, and every use
 * of a clock method through one holding its class's name, which ends with the class's simple name.
 */
static const char METHOD_NAME[] = CLOCK_METHOD_NAME;
static const char TIME_PACKAGE_NAME[] = TIME_PACKAGE;

static int contains(const unsigned char *bytes, jint length, const char *text) {
    return memmem(bytes, (size_t) length, text, strlen(text)) != NULL;
}

/* The simple name of a class, by its internal name. */
static const char *simple_name(const char *internal_name) {
    const char *slash = strrchr(internal_name, '/');
    return slash == NULL ? internal_name : slash + 1;
}

int names_clock_method(const unsigned char *bytes, jint length, const clock_methods *clocks) {
    if (contains(bytes, length, METHOD_NAME) || contains(bytes, length, TIME_PACKAGE_NAME)) {
        return 1;
    }
    /*
     * Each simple name once: the library clocks share few (SystemClock), and a clock method named currentTimeMillis
     * is a use the first search has found.
     */
    for (size_t i = 0; i < clocks->count; i++) {
        const char *name = simple_name(clocks->methods[i].owner);
        int searched = strcmp(clocks->methods[i].name, METHOD_NAME) == 0;
        for (size_t j = 0; j < i && !searched; j++) {
            searched = strcmp(clocks->methods[j].name, METHOD_NAME) != 0
                    && strcmp(simple_name(clocks->methods[j].owner), name) == 0;
        }
        if (!searched && contains(bytes, length, name)) {
            return 1;
        }
    }
    return 0;
}
