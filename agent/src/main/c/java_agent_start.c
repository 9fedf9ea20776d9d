/*
 * The -javaagent entry's native start (io.clockagent.agent.internal.install.NativeStart): premain, and agentmain as
 * java -jar clock-agent.jar attach calls it, load this library and hand the start over to its one start
 * (agent_entry.c), so that a start through -javaagent runs none of the agent's Java before main either, and an attach
 * serves through the same hook as every other way in. Before Java 24 Java loads the library itself and the JVM binds
 * the start by its name; from Java 24 on, a class defined in java.lang loads it (NativeStartLibrary) and binds it here.
 *
 * May include: agent_entry.h.
 */
#include <jni.h>
#include <stdlib.h>

#include "agent_entry.h"

/*
 * A Java byte array of UTF-8 as a C string, or NULL for null; `*failed` is set if memory runs short. UTF-8 from
 * Java, not JNI's modified UTF-8, so that the C grammar reads the same bytes as from -agentpath's command line.
 */
static char *c_string(JNIEnv *jni, jbyteArray utf8, int *failed) {
    if (utf8 == NULL) {
        return NULL;
    }
    jsize length = (*jni)->GetArrayLength(jni, utf8);
    char *text = malloc((size_t) length + 1);
    if (text == NULL) {
        *failed = 1;
        return NULL;
    }
    (*jni)->GetByteArrayRegion(jni, utf8, 0, length, (jbyte *) text);
    text[length] = '\0';
    return text;
}

/* NativeStart.start(agentArguments, optionsProperty, agentJar, attached), each text UTF-8: an entry_start. */
JNIEXPORT jint JNICALL Java_io_clockagent_agent_internal_install_NativeStart_start(JNIEnv *jni, jclass start_class,
                                                                                   jbyteArray arguments,
                                                                                   jbyteArray property,
                                                                                   jbyteArray jar,
                                                                                   jboolean attached) {
    (void) start_class;
    int failed = 0;
    char *arguments_text = c_string(jni, arguments, &failed);
    char *property_text = c_string(jni, property, &failed);
    char *jar_text = c_string(jni, jar, &failed);
    entry_start outcome = failed || jar_text == NULL ? ENTRY_FILTER_IN_JAVA
            : start_for_java_agent(jni, arguments_text, property_text, jar_text, attached);
    free(arguments_text);
    free(property_text);
    free(jar_text);
    return (jint) outcome;
}

/* NativeStartLibrary.bind(nativeStart), from its initializer; a failure leaves the start unbound, so Java starts. */
JNIEXPORT void JNICALL Java_java_lang_ClockAgentNativeStartLibrary_bind(JNIEnv *jni, jclass library_class,
                                                                       jclass native_start) {
    (void) library_class;
    static const JNINativeMethod start[] = {
        {JAVA_NATIVE_START_NAME, JAVA_NATIVE_START_DESCRIPTOR,
         (void *) Java_io_clockagent_agent_internal_install_NativeStart_start},
    };
    if ((*jni)->RegisterNatives(jni, native_start, start, 1) != JNI_OK) {
        (*jni)->ExceptionClear(jni);
    }
}
