#ifndef CLOCK_AGENT_HELD_CLASSES_H
#define CLOCK_AGENT_HELD_CLASSES_H

#include <jni.h>

/* A copy of a class the hook saw, with its original bytes, held until it can be shown or counted. */
typedef struct held_class {
    struct held_class *next;
    char *name;
    jint length;
    unsigned char *bytes;
    int rewritten;
} held_class;

/* Held classes in the order they came; all zeros is empty, so that a thread-local one needs no initializer. */
typedef struct {
    held_class *first;
    /* Where the next one goes; NULL for &first. */
    held_class **last;
} held_classes;

/* Appends a copy of the class; where memory runs short, nothing, and the caller goes on without it. */
void hold_class(held_classes *held, const char *name, jint length, const unsigned char *bytes, int rewritten);

/* The classes held so far, first to last, for the caller to free; `held` is left empty. */
held_class *take_held(held_classes *held);

/* Frees a list that take_held gave. */
void free_held(held_class *first);

#endif
