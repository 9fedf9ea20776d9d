/*
 * Loading the Java side: the agent's Java from clock-agent.jar, in a class loader of its own above the platform loader,
 * so that it stays apart from the service, with the natives it reads the hook's counts and its threads' CPU times and
 * restores classes through, started through NativeEntry.start. When to load it is java_side.c's.
 *
 * May include: agent_copy.h, agent_options.h, class_restore.h, clock_class_loads.h, java_side_loader.h,
 * jni_helpers.h.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_copy.h"
#include "agent_options.h"
#include "class_restore.h"
#include "clock_class_loads.h"
#include "java_contract.h"
#include "java_side_loader.h"
#include "jni_helpers.h"

/* The local references load_java_side makes: the loader's classes and objects, the entry's, the arguments. */
#define LOCAL_REFS_OF_THE_LOAD 32

/*
 * A source's text as the Java side is to parse it: the very code units the C parser read, NULL for a source not
 * given; where memory runs short, NULL with an OutOfMemoryError pending, which must not pass for a source not given.
 */
static jstring source_text(JNIEnv *jni, const char *text) {
    if (text == NULL) {
        return NULL;
    }
    size_t length = strlen(text);
    uint16_t *units = length > INT_MAX ? NULL : malloc((length == 0 ? 1 : length) * sizeof *units);
    if (units == NULL) {
        jclass out_of_memory = (*jni)->FindClass(jni, "java/lang/OutOfMemoryError");
        if (out_of_memory != NULL) {
            (*jni)->ThrowNew(jni, out_of_memory, "copying the options for the Java side");
        }
        return NULL;
    }
    jstring java_text = (*jni)->NewString(jni, (const jchar *) units, (jsize) option_text_utf16(text, units));
    free(units);
    return java_text;
}

/* A class loader over the jar alone, above the platform loader: the agent's Java stays apart from the service. */
static jobject agent_loader(JNIEnv *jni) {
    jclass file_class = (*jni)->FindClass(jni, "java/io/File");
    jmethodID file_init = file_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, file_class, "<init>", "(Ljava/lang/String;)V");
    jmethodID to_uri = file_class == NULL ? NULL : (*jni)->GetMethodID(jni, file_class, "toURI", "()Ljava/net/URI;");
    jclass uri_class = (*jni)->FindClass(jni, "java/net/URI");
    jmethodID to_url = uri_class == NULL ? NULL : (*jni)->GetMethodID(jni, uri_class, "toURL", "()Ljava/net/URL;");
    jclass url_class = (*jni)->FindClass(jni, "java/net/URL");
    jclass loader_class = (*jni)->FindClass(jni, "java/lang/ClassLoader");
    jclass url_loader_class = (*jni)->FindClass(jni, "java/net/URLClassLoader");
    jmethodID url_loader_init = url_loader_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, url_loader_class, "<init>", "([Ljava/net/URL;Ljava/lang/ClassLoader;)V");
    if (file_init == NULL || to_uri == NULL || to_url == NULL || url_class == NULL || url_loader_init == NULL) {
        return NULL;
    }
    jstring path = java_string(jni, this_copy.jar_path);
    jobject file = path == NULL ? NULL : checked(jni, (*jni)->NewObject(jni, file_class, file_init, path));
    jobject uri = file == NULL ? NULL : checked(jni, (*jni)->CallObjectMethod(jni, file, to_uri));
    jobject url = uri == NULL ? NULL : checked(jni, (*jni)->CallObjectMethod(jni, uri, to_url));
    jobjectArray urls = url == NULL ? NULL : (*jni)->NewObjectArray(jni, 1, url_class, url);
    jobject platform = urls == NULL ? NULL
            : call_static(jni, loader_class, "getPlatformClassLoader", "()Ljava/lang/ClassLoader;", NULL);
    return platform == NULL ? NULL
            : checked(jni, (*jni)->NewObject(jni, url_loader_class, url_loader_init, urls, platform));
}

/* The hook's counts, as the Java side reads them. */
static jlong JNICALL scanned_for_java(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&this_copy.classes_scanned, __ATOMIC_RELAXED);
}

static jlong JNICALL rewritten_for_java(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&this_copy.classes_rewritten, __ATOMIC_RELAXED);
}

/* A thread CPU clock of the kernel's, for a thread of this process by its id (0: the calling thread). */
static clockid_t thread_cpu_clock(jint tid) {
    /* As glibc's pthread_getcpuclockid makes it: the id inverted, flagged per-thread (4) and scheduler-counted (2). */
    return (clockid_t) ((~(unsigned int) tid) << 3) | 6;
}

/* How many threads' times one pass copies between the Java arrays and the stack. */
#define THREAD_CPU_CHUNK 64

/*
 * The CPU time of each thread named, for cache=auto's price of a direct read in the service: each from the thread's
 * own kernel clock, exact even for a thread running on another CPU at that moment, where the process clock's sum lags
 * by up to a scheduler tick; -1 for a thread gone. Throws IllegalArgumentException for a count outside the arrays.
 */
static void JNICALL thread_cpu_nanos(JNIEnv *jni, jclass service_cpu_time, jintArray tids, jint count,
                                     jlongArray nanos) {
    (void) service_cpu_time;
    if (tids == NULL || nanos == NULL || count < 0 || count > (*jni)->GetArrayLength(jni, tids)
            || count > (*jni)->GetArrayLength(jni, nanos)) {
        jclass illegal = (*jni)->FindClass(jni, "java/lang/IllegalArgumentException");
        if (illegal != NULL) {
            (*jni)->ThrowNew(jni, illegal, "thread CPU times: a count outside the arrays");
        }
        return;
    }
    jint chunk_tids[THREAD_CPU_CHUNK];
    jlong chunk_nanos[THREAD_CPU_CHUNK];
    for (jint start = 0; start < count; start += THREAD_CPU_CHUNK) {
        jint length = count - start < THREAD_CPU_CHUNK ? count - start : THREAD_CPU_CHUNK;
        (*jni)->GetIntArrayRegion(jni, tids, start, length, chunk_tids);
        for (jint i = 0; i < length; i++) {
            struct timespec cpu;
            chunk_nanos[i] = clock_gettime(thread_cpu_clock(chunk_tids[i]), &cpu) != 0 ? -1
                    : (jlong) cpu.tv_sec * 1000000000 + cpu.tv_nsec;
        }
        (*jni)->SetLongArrayRegion(jni, nanos, start, length, chunk_nanos);
    }
}

/*
 * Binds the natives the Java side reads the hook's counts and its clock classes, and restores classes, through, and
 * its threads' CPU times; false with an exception.
 */
static int bind_natives(JNIEnv *jni, jobject loader) {
    static const JNINativeMethod natives[] = {
        {JAVA_CLASSES_SCANNED_NAME, JAVA_CLASSES_SCANNED_DESCRIPTOR, (void *) scanned_for_java},
        {JAVA_CLASSES_REWRITTEN_NAME, JAVA_CLASSES_REWRITTEN_DESCRIPTOR, (void *) rewritten_for_java},
        {JAVA_RESTORE_CLASSES_NAME, JAVA_RESTORE_CLASSES_DESCRIPTOR, (void *) restore_classes},
        {JAVA_CLOCK_METHODS_REDIRECTED_NAME, JAVA_CLOCK_METHODS_REDIRECTED_DESCRIPTOR,
         (void *) clock_methods_redirected},
        {JAVA_CLOCK_CLASSES_LOADED_FOR_NAME, JAVA_CLOCK_CLASSES_LOADED_FOR_DESCRIPTOR,
         (void *) clock_classes_loaded_for},
    };
    static const JNINativeMethod service_cpu[] = {
        {JAVA_THREAD_CPU_NANOS_NAME, JAVA_THREAD_CPU_NANOS_DESCRIPTOR, (void *) thread_cpu_nanos},
    };
    jclass calls = class_in(jni, loader, JAVA_CALLS_CLASS, JNI_FALSE);
    if (calls == NULL
            || (*jni)->RegisterNatives(jni, calls, natives, (jint) (sizeof natives / sizeof natives[0])) != JNI_OK) {
        return 0;
    }
    jclass service_cpu_time = class_in(jni, loader, JAVA_SERVICE_CPU_TIME_CLASS, JNI_FALSE);
    return service_cpu_time != NULL && (*jni)->RegisterNatives(jni, service_cpu_time, service_cpu, 1) == JNI_OK;
}

/*
 * The Installation's methods, found before the Java side starts: a jar of another release, which lacks one, must not
 * leave a started Java side (its ticker, its report) that the library cannot tell anything. False with an exception.
 */
static int find_installation_methods(JNIEnv *jni, jobject loader, installation_methods *methods) {
    jclass installation = class_in(jni, loader, JAVA_INSTALLATION_CLASS, JNI_FALSE);
    if (installation == NULL) {
        return 0;
    }
    methods->clock_defined = (*jni)->GetMethodID(jni, installation, JAVA_CLOCK_DEFINED_NAME,
                                                 JAVA_CLOCK_DEFINED_DESCRIPTOR);
    methods->rewrote_natively = methods->clock_defined == NULL ? NULL : (*jni)->GetMethodID(jni, installation,
            JAVA_REWROTE_NATIVELY_NAME, JAVA_REWROTE_NATIVELY_DESCRIPTOR);
    methods->left_instant_reads = methods->rewrote_natively == NULL ? NULL : (*jni)->GetMethodID(jni,
            installation, JAVA_LEFT_INSTANT_READS_NAME, JAVA_LEFT_INSTANT_READS_DESCRIPTOR);
    methods->jmx_starting = methods->left_instant_reads == NULL ? NULL : (*jni)->GetMethodID(jni, installation,
            JAVA_JMX_STARTING_NAME, JAVA_JMX_STARTING_DESCRIPTOR);
    methods->detach_requested = methods->jmx_starting == NULL ? NULL : (*jni)->GetMethodID(jni, installation,
            JAVA_DETACH_REQUESTED_NAME, JAVA_DETACH_REQUESTED_DESCRIPTOR);
    (*jni)->DeleteLocalRef(jni, installation);
    return methods->detach_requested != NULL;
}

/*
 * Loads the agent's Java side from the jar, binds its natives, finds the methods the library calls and starts it
 * (NativeEntry.start): its Installation, or NULL once one line has said why not. Each step runs only if the one
 * before left no exception pending.
 */
jobject load_java_side(JNIEnv *jni, installation_methods *methods) {
    /*
     * The dozen local references the load makes go with a frame of its own: the thread may be the attach's, which
     * goes on to retransform, and a JVM (JDK 17) counts them against what each hook's frame plans for.
     */
    if ((*jni)->PushLocalFrame(jni, LOCAL_REFS_OF_THE_LOAD) != JNI_OK) {
        char why[EXCEPTION_LINE_SIZE];
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: could not load the"
                " agent from %s: %s\n", this_copy.jar_path, take_exception(jni, "out of memory", why));
        return NULL;
    }
    jobject loader = agent_loader(jni);
    jclass entry = loader == NULL || !bind_natives(jni, loader) || !find_installation_methods(jni, loader, methods)
            ? NULL : class_in(jni, loader, JAVA_ENTRY_CLASS, JNI_TRUE);
    jmethodID start = entry == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, entry, JAVA_ENTRY_START_NAME, JAVA_ENTRY_START_DESCRIPTOR);
    jstring texts[SOURCE_COUNT] = {NULL, NULL, NULL};
    for (int source = 0; source < SOURCE_COUNT && start != NULL && !(*jni)->ExceptionCheck(jni); source++) {
        texts[source] = source_text(jni, this_copy.sources[source]);
    }
    jstring claimed = start == NULL || (*jni)->ExceptionCheck(jni) ? NULL : java_string(jni, this_copy.banner);
    jobject started = claimed == NULL ? NULL
            : checked(jni, (*jni)->CallStaticObjectMethod(jni, entry, start, texts[SOURCE_AGENT_ARGUMENTS],
                                                          texts[SOURCE_SYSTEM_PROPERTY],
                                                          texts[SOURCE_ENVIRONMENT_VARIABLE], claimed));
    /* A start that returns none without a failure has said why itself. */
    if (started == NULL && (start == NULL || (*jni)->ExceptionCheck(jni))) {
        char why[EXCEPTION_LINE_SIZE];
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: could not load the"
                " agent from %s: %s\n", this_copy.jar_path, take_exception(jni, "out of memory", why));
    }
    return (*jni)->PopLocalFrame(jni, started);
}
