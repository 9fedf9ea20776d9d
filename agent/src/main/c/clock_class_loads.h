#ifndef CLOCK_AGENT_CLOCK_CLASS_LOADS_H
#define CLOCK_AGENT_CLOCK_CLASS_LOADS_H

#include <jni.h>
#include <jvmti.h>

/*
 * Says once, for each class of a clock method in force (the options' clocks), that it loads after all, with the class
 * whose code made the JVM load it, or, where it declares no static method the service's own clocks name, withdraws
 * that method and says so; nothing for any other class. Called by the hook for every class that loads.
 */
void say_if_clock_class(jvmtiEnv *jvmti, JNIEnv *jni, const char *internal_name, const unsigned char *bytes,
                        jint length);

/* Notes the clock methods whose classes a class the hook rewrote names: its uses of them went to the cached clock. */
void note_redirected(const unsigned char *bytes, jint length);

/* Those methods, by bit (bit i for the i-th of the options' clocks), as EntryCalls.clockMethodsRedirected. */
jlong JNICALL clock_methods_redirected(JNIEnv *jni, jclass calls);

/* By the same index, the class each method's class loaded for, or null, as EntryCalls.clockClassesLoadedFor. */
jobjectArray JNICALL clock_classes_loaded_for(JNIEnv *jni, jclass calls);

#endif
