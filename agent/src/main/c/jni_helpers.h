#ifndef CLOCK_AGENT_JNI_HELPERS_H
#define CLOCK_AGENT_JNI_HELPERS_H

#include <jni.h>
#include <jvmti.h>

/* One line on the service's standard error, prefixed as the Java side's AgentLog prefixes its own. */
void say(const char *line);

/* Room for an exception's line; a longer one is cut. */
#define EXCEPTION_LINE_SIZE 512

/*
 * The exception pending on this thread as one line, written into `line`, and cleared; `otherwise` if it has none or
 * its text cannot be had. Returns `line`: never NULL, and it allocates nothing, as it serves where memory ran short.
 */
const char *take_exception(JNIEnv *jni, const char *otherwise, char line[EXCEPTION_LINE_SIZE]);

/*
 * What a call into Java returned, or NULL where it threw, the exception left pending: the check each call into Java
 * needs before any other JNI call, which -Xcheck:jni holds the library to.
 */
jobject checked(JNIEnv *jni, jobject returned);

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

typedef enum { PROPERTY_CLAIMED, PROPERTY_HELD, PROPERTY_UNCLAIMABLE } property_claim;

/*
 * System.getProperties().putIfAbsent(key, value): claimed where it found none before, held where it found one, and
 * unclaimable, with why in `why`, where the call failed (memory short, or properties that refuse it): never a claim.
 */
property_claim java_property_claim(JNIEnv *jni, const char *key, const char *value, char why[EXCEPTION_LINE_SIZE]);

#endif
