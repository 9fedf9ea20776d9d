/*
 * The -javaagent entry's native start (io.clockagent.agent.internal.install.NativeStart): premain loads this library
 * and hands the start over to the -agentpath entry's C half (agent_entry.c), so that a start through -javaagent runs
 * none of the agent's Java before main either. Before Java 24 premain loads the library itself and the JVM binds the
 * start by its name; from Java 24 on, a class defined in java.lang loads it (NativeStartLibrary) and binds it here.
 */
#include <jni.h>
#include <stdlib.h>

#include "agent_entry.h"

#define START_DESCRIPTOR "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)I"

/* A Java string's modified UTF-8 as a C string, or NULL for null; release it with release_chars. */
static const char *chars(JNIEnv *jni, jstring text) {
    return text == NULL ? NULL : (*jni)->GetStringUTFChars(jni, text, NULL);
}

static void release_chars(JNIEnv *jni, jstring text, const char *utf) {
    if (utf != NULL) {
        (*jni)->ReleaseStringUTFChars(jni, text, utf);
    }
}

/* NativeStart.start(agentArguments, optionsProperty, agentJar): an entry_start. */
JNIEXPORT jint JNICALL Java_io_clockagent_agent_internal_install_NativeStart_start(JNIEnv *jni, jclass start_class,
                                                                                   jstring arguments,
                                                                                   jstring property, jstring jar) {
    (void) start_class;
    const char *arguments_utf = chars(jni, arguments);
    const char *property_utf = chars(jni, property);
    const char *jar_utf = chars(jni, jar);
    entry_start outcome = ENTRY_FILTER_IN_JAVA;
    if ((arguments == NULL || arguments_utf != NULL) && (property == NULL || property_utf != NULL)
            && jar_utf != NULL) {
        outcome = start_for_java_agent(jni, arguments_utf, property_utf, jar_utf);
    }
    release_chars(jni, arguments, arguments_utf);
    release_chars(jni, property, property_utf);
    release_chars(jni, jar, jar_utf);
    return (jint) outcome;
}

/* NativeStartLibrary.bind(nativeStart), from its initializer; a failure leaves the start unbound, so Java starts. */
JNIEXPORT void JNICALL Java_java_lang_ClockAgentNativeStartLibrary_bind(JNIEnv *jni, jclass library_class,
                                                                       jclass native_start) {
    (void) library_class;
    static const JNINativeMethod start[] = {
        {"start", START_DESCRIPTOR, (void *) Java_io_clockagent_agent_internal_install_NativeStart_start},
    };
    if ((*jni)->RegisterNatives(jni, native_start, start, 1) != JNI_OK) {
        (*jni)->ExceptionClear(jni);
    }
}
