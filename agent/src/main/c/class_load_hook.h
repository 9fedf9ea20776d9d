#ifndef CLOCK_AGENT_CLASS_LOAD_HOOK_H
#define CLOCK_AGENT_CLASS_LOAD_HOOK_H

#include <jni.h>
#include <jvmti.h>

/*
 * Asks for the hook in this environment, with `on_vm_init` for the VMInit event: at the JVM's load that event is
 * enabled, and turns the hook on; in the live phase the hook goes on at once. Whether the JVM granted it. The
 * capabilities are ones the JVM grants in the live phase too, as it does to an attached java.lang.instrument agent.
 */
int hook_install(jvmtiEnv *jvmti, int at_load, jvmtiEventVMInit on_vm_init);

/* Whether a class, by its internal name, is in the options' scope: RewriteScope's rule. */
int in_scope(const char *internal_name);

/* Whether the loader is the platform loader, which defines JDK classes outside the boot loader. */
int is_platform_loader(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader);

/* The cached clock once defined (or found), else NULL. */
jclass defined_clock(void);

/*
 * Runs `retransform` as this copy's own retransformation: the classes it sends through the hook are counted and shown
 * as first rewrites, where another agent's retransformation of a class counted before is not counted again.
 */
int retransform_as_this_copy(jvmtiEnv *jvmti, jint count, jclass *classes);

/* The classes in scope the hook has seen, and those it rewrote (in a dry run: would have), each counted once. */
long classes_scanned(void);
long classes_rewritten(void);

#endif
