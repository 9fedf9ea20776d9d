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
 * redirected java.time method through one holding its class's name, which starts with the package's.
 */
static const char METHOD_NAME[] = CLOCK_METHOD_NAME;
static const char TIME_PACKAGE_NAME[] = TIME_PACKAGE;

int names_clock_method(const unsigned char *bytes, jint length) {
    return memmem(bytes, (size_t) length, METHOD_NAME, sizeof METHOD_NAME - 1) != NULL
            || memmem(bytes, (size_t) length, TIME_PACKAGE_NAME, sizeof TIME_PACKAGE_NAME - 1) != NULL;
}
