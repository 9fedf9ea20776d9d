#ifndef CLOCK_AGENT_JVMTI_ALLOCATE_H
#define CLOCK_AGENT_JVMTI_ALLOCATE_H

#include <stddef.h>

/*
 * A class_allocator (call_site_rewriter.h) over a jvmtiEnv *: the memory a ClassFileLoadHook hands back as the new
 * class file must come from the hook's JVMTI environment, which the JVM then frees. NULL if memory is short.
 */
unsigned char *jvmti_allocate(void *jvmti_env, size_t size);

#endif
