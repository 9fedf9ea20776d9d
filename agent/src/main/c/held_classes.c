/*
 * Held classes: the copies of classes the hook saw that wait, with their original bytes, for the Java side to serve
 * (java_side.c) or for the JVM's answer to a retransformation (class_load_hook.c). It knows nothing of the agent; the
 * callers' locks or threads keep each queue to one thread at a time.
 *
 * May include: held_classes.h.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "held_classes.h"

void hold_class(held_classes *held, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    held_class *copy = malloc(sizeof *copy);
    char *name_copy = strdup(name);
    unsigned char *bytes_copy = malloc((size_t) length);
    if (copy == NULL || name_copy == NULL || bytes_copy == NULL) {
        free(copy);
        free(name_copy);
        free(bytes_copy);
        return;
    }
    memcpy(bytes_copy, bytes, (size_t) length);
    *copy = (held_class) {NULL, name_copy, length, bytes_copy, rewritten};
    *(held->last != NULL ? held->last : &held->first) = copy;
    held->last = &copy->next;
}

held_class *take_held(held_classes *held) {
    held_class *first = held->first;
    held->first = NULL;
    held->last = NULL;
    return first;
}

void free_held(held_class *first) {
    while (first != NULL) {
        held_class *next = first->next;
        free(first->name);
        free(first->bytes);
        free(first);
        first = next;
    }
}
