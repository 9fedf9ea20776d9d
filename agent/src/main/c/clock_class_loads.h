#ifndef CLOCK_AGENT_CLOCK_CLASS_LOADS_H
#define CLOCK_AGENT_CLOCK_CLASS_LOADS_H

#include <jni.h>
#include <jvmti.h>

/*
 * Says once, for each class of a clock method in force (the options' clocks), that it loads after all, with the class
 * whose code made the JVM load it; nothing for any other class. Called by the hook for every class that loads.
 */
void say_if_clock_class(jvmtiEnv *jvmti, JNIEnv *jni, const char *internal_name);

#endif
