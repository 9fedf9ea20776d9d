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

/*
 * A retransform_settle (class_restore.h): what the hook counted and showed of this thread's retransformation for this
 * copy, made good where the JVM retransformed the classes, dropped where it refused them.
 */
void hook_settle_retransformation(JNIEnv *jni, int retransformed);

#endif
