/*
 * Test driver for call_site_rewriter.c, so that a JUnit test can hold it against the Java rewriter class file by
 * class file. Usage: rewrite_files TARGET_INTERNAL_NAME [OWNER NAME KNOWN_STATIC]..., each triple a clock method in
 * force (its class's internal name, its name, and 1 where it is known to be static, as a library clock's is, or 0),
 * then one line per class file on stdin: "1 PATH" to rewrite it
 * as a class where cachedInstants applies, "0 PATH" otherwise; for each prints "DONE PATH" (and writes the rewritten
 * class to PATH.out), "NOT_NEEDED PATH" or "LEFT_TO_JAVA PATH".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_site_rewriter.h"

static unsigned char *heap_allocate(void *context, size_t size) {
    (void) context;
    return malloc(size);
}

static unsigned char *read_file(const char *path, long *length) {
    FILE *in = fopen(path, "rb");
    if (in == NULL || fseek(in, 0, SEEK_END) != 0 || (*length = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0) {
        return NULL;
    }
    unsigned char *bytes = malloc((size_t) *length + 1);
    if (bytes != NULL && fread(bytes, 1, (size_t) *length, in) != (size_t) *length) {
        free(bytes);
        bytes = NULL;
    }
    fclose(in);
    return bytes;
}

int main(int argc, char **argv) {
    static const char *const OUTCOMES[] = {"NOT_NEEDED", "DONE", "LEFT_TO_JAVA"};
    if (argc < 2 || (argc - 2) % 3 != 0) {
        fprintf(stderr, "usage: rewrite_files TARGET_INTERNAL_NAME [OWNER NAME KNOWN_STATIC]... < paths\n");
        return 2;
    }
    /* Nothing is withdrawn here: no class loads. */
    unsigned long long withdrawn = 0;
    clock_methods clocks = {NULL, (size_t) (argc - 2) / 3, &withdrawn};
    clock_method *methods = calloc(clocks.count + 1, sizeof *methods);
    if (methods == NULL) {
        return 2;
    }
    for (size_t i = 0; i < clocks.count; i++) {
        methods[i].owner = argv[2 + 3 * i];
        methods[i].name = argv[3 + 3 * i];
        methods[i].known_static = strcmp(argv[4 + 3 * i], "1") == 0;
    }
    clocks.methods = methods;
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if ((line[0] != '0' && line[0] != '1') || line[1] != ' ') {
            fprintf(stderr, "expected '0 PATH' or '1 PATH', got: %s\n", line);
            return 2;
        }
        int cached_instants = line[0] == '1';
        const char *path = line + 2;
        long length;
        unsigned char *bytes = read_file(path, &length);
        if (bytes == NULL) {
            fprintf(stderr, "cannot read %s\n", path);
            return 2;
        }
        jint rewritten_length = 0;
        unsigned char *rewritten = NULL;
        rewrite_outcome outcome = rewrite_call_sites(bytes, (jint) length, argv[1], cached_instants, &clocks,
                                                     heap_allocate, NULL, &rewritten_length, &rewritten);
        if (outcome == REWRITE_DONE) {
            char out_path[4200];
            snprintf(out_path, sizeof out_path, "%s.out", path);
            FILE *out = fopen(out_path, "wb");
            if (out == NULL || fwrite(rewritten, 1, (size_t) rewritten_length, out) != (size_t) rewritten_length) {
                fprintf(stderr, "cannot write %s\n", out_path);
                return 2;
            }
            fclose(out);
            free(rewritten);
        }
        printf("%s %s\n", OUTCOMES[outcome], path);
        free(bytes);
    }
    free(methods);
    return 0;
}
