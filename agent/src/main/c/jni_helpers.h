#ifndef CLOCK_AGENT_JNI_HELPERS_H
#define CLOCK_AGENT_JNI_HELPERS_H

#include <jni.h>
#include <jvmti.h>

/* One line on the service's standard error, prefixed as the Java side's AgentLog prefixes its own. */
void say(const char *line);

/* The exception pending on this thread as one line, cleared; `otherwise` if it has none. Free it. */
char *take_exception(JNIEnv *jni, const char *otherwise);

/* Calls a static method that returns an object; NULL with an exception pending. */
jobject call_static(JNIEnv *jni, jclass owner, const char *method, const char *descriptor, jobject argument);

/* A class by its binary name in `loader` (NULL: the boot loader); NULL with an exception pending. */
jclass class_in(JNIEnv *jni, jobject loader, const char *binary_name, jboolean initialize);

/* Whether the loader's class has this signature. */
int loader_is(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader, const char *loader_signature);

/*
 * The Java String of UTF-8 text, decoded as Java decodes UTF-8 (U+FFFD for a malformed sequence), not as JNI's
 * modified UTF-8, which reads a character beyond the Basic Multilingual Plane, and any malformed byte, otherwise than
 * the Java side would: NULL for NULL, or with an exception pending.
 */
jstring java_string(JNIEnv *jni, const char *utf8);

/* System.getProperty(key) is set; an error counts as not. */
int java_property_set(JNIEnv *jni, const char *key);

/* System.getProperties().putIfAbsent(key, value) found none before; an error counts as none. */
int java_property_claimed(JNIEnv *jni, const char *key, const char *value);

#endif
