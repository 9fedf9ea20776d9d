#ifndef CLOCK_AGENT_CALL_SITE_REWRITER_H
#define CLOCK_AGENT_CALL_SITE_REWRITER_H

#include <jni.h>
#include <stddef.h>

#include "clock_methods.h"

typedef enum {
    /* No Methodref to a method redirected for this class: the class loads as it is. */
    REWRITE_NOT_NEEDED,
    /* *new_bytes holds the rewritten class, from the allocator. */
    REWRITE_DONE,
    /*
     * Anything unusual (a version older than 45, a constant-pool tag it does not know, a malformed or full pool):
     * the Java rewriter decides, and reports.
     */
    REWRITE_LEFT_TO_JAVA
} rewrite_outcome;

/* Memory for a rewritten class: the JVMTI environment's in the agent, so that the JVM can free it; NULL if none. */
typedef unsigned char *(*class_allocator)(void *context, size_t size);

/*
 * The Java rewriter's redirect (CallSiteRewriter, without site counting), byte for byte: appends a Utf8 and a Class
 * entry naming target_internal_name to the constant pool and points every Methodref to
 * java/lang/System.currentTimeMillis()J, to the java.time methods of RedirectedMethod (those of cachedInstants
 * too where `cached_instants` is set) and to the clock methods `clocks`, at that class, with a NameAndType of the
 * target method's name where it differs.
 */
rewrite_outcome rewrite_call_sites(const unsigned char *bytes, jint length, const char *target_internal_name,
                                   int cached_instants, const clock_methods *clocks, class_allocator allocate,
                                   void *context, jint *new_length, unsigned char **new_bytes);

/*
 * Whether a class that needs no rewrite as a class where cachedInstants does not apply would need one where it does:
 * it keeps java.time reads of instants direct. For the counts that verbose and report show; allocates while it looks.
 */
int keeps_instant_reads(const unsigned char *bytes, jint length, const char *target_internal_name,
                        const clock_methods *clocks);

/*
 * DeclaredMethods.declaresStaticClockMethod: whether the class declares a static method of this name and descriptor
 * ()J; 1 too where the class file cannot be read with certainty.
 */
int declares_static_clock_method(const unsigned char *bytes, jint length, const char *name);

#endif
