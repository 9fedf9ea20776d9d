/*
 * The Java side's start: the thread that waits for its moment, and the loading of the agent's Java from
 * clock-agent.jar, in a class loader of its own, with the natives it reads the hook's counts and restores classes
 * through. The moment is past the service's start (START_DELAY_MILLIS, then while classes in scope go on loading) and
 * once the clock is read often enough that caching could pay, so that a JVM that never loads a class to rewrite or
 * seldom reads the clock never loads the Java side, and a service's start does not share its CPUs with it; earlier as
 * JMX starts, for the MBean, or as a detach is asked for. Attached to a service that runs, it skips the start delay.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_copy.h"
#include "class_load_hook.h"
#include "class_restore.h"
#include "java_contract.h"
#include "java_side_start.h"
#include "jni_helpers.h"

#define START_THREAD_NAME "clock-agent-start"
/*
 * The start thread's stack, at the least: the JVM's own default for a Java thread on aarch64 (ThreadStackSize, 1 MiB
 * on x86-64), since the thread runs Java once it joins the JVM. glibc's default (the stack limit, 8 MiB as a rule) is
 * kept; musl's is 128 KiB, of which the JVM's guard and shadow pages leave Java too little.
 */
#define START_THREAD_STACK_BYTES (2 * 1024 * 1024)
/*
 * How long after the first rewrite the start thread waits before it loads the Java side: past the start of most
 * services, which the Java side's loading would otherwise slow on a machine with few cores. Then it waits on while
 * classes in scope go on loading, as they do through a longer start, until none has loaded over START_QUIET_MILLIS
 * (it looks once a period, so as not to wake often inside a start), and at the longest START_DELAY_MAX_MILLIS: the
 * Java side started inside a start costs it about as much as the hook's own work (benchmarks/README.md). Reads go to
 * the direct clock meanwhile, counted, as cache=auto has them start anyway.
 */
#define START_DELAY_MILLIS 1000
#define START_QUIET_MILLIS 100
#define START_DELAY_MAX_MILLIS 10000
/*
 * Then it waits for the clock to be read: a JVM that reads it rarely (a tool, a service that logs now and then) has
 * no use for a ticker, as cache=auto would find, and never loads one. The Java side starts once rewritten sites read
 * the direct clock, which the clock counts, START_READS_PER_SECOND times a second over a step of
 * START_READS_STEP_MILLIS: a tenth of the rate from which caching pays where a read costs 2 us (hpet) and the ticker
 * 20 ms of CPU a second, so that cache=auto decides, with the ticker started, wherever caching could pay. A step of a
 * second wakes a JVM that reads rarely no more than once a second for its life. With cache=always it starts at the
 * first read.
 */
#define START_READS_PER_SECOND 1000
#define START_READS_STEP_MILLIS 1000

/* The JVM the start thread joins once it has something to ask of Java. */
static JavaVM *start_vm;

void ticker_did_not_start(const char *why) {
    fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: %s\n", why);
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
    jobject file = path == NULL ? NULL : (*jni)->NewObject(jni, file_class, file_init, path);
    jobject uri = file == NULL ? NULL : (*jni)->CallObjectMethod(jni, file, to_uri);
    jobject url = uri == NULL ? NULL : (*jni)->CallObjectMethod(jni, uri, to_url);
    jobjectArray urls = url == NULL ? NULL : (*jni)->NewObjectArray(jni, 1, url_class, url);
    jobject platform = urls == NULL ? NULL
            : call_static(jni, loader_class, "getPlatformClassLoader", "()Ljava/lang/ClassLoader;", NULL);
    return platform == NULL ? NULL : (*jni)->NewObject(jni, url_loader_class, url_loader_init, urls, platform);
}

/* The hook's counts, as the Java side reads them. */
static jlong JNICALL scanned_for_java(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return classes_scanned();
}

static jlong JNICALL rewritten_for_java(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return classes_rewritten();
}

/* Binds the natives the Java side reads the hook's counts and restores classes through; false with an exception. */
static int bind_natives(JNIEnv *jni, jobject loader) {
    static const JNINativeMethod counts[] = {
        {JAVA_CLASSES_SCANNED_NAME, JAVA_CLASSES_SCANNED_DESCRIPTOR, (void *) scanned_for_java},
        {JAVA_CLASSES_REWRITTEN_NAME, JAVA_CLASSES_REWRITTEN_DESCRIPTOR, (void *) rewritten_for_java},
    };
    static const JNINativeMethod restore[] = {
        {JAVA_RESTORE_CLASSES_NAME, JAVA_RESTORE_CLASSES_DESCRIPTOR, (void *) restore_classes},
    };
    jclass counts_class = class_in(jni, loader, JAVA_COUNTS_CLASS, JNI_FALSE);
    jclass restore_class = counts_class == NULL ? NULL : class_in(jni, loader, JAVA_RESTORE_CLASS, JNI_FALSE);
    return restore_class != NULL
            && (*jni)->RegisterNatives(jni, counts_class, counts, (jint) (sizeof counts / sizeof counts[0])) == JNI_OK
            && (*jni)->RegisterNatives(jni, restore_class, restore, 1) == JNI_OK;
}

/*
 * Loads the agent's Java side from the jar, binds its natives, starts it (NativeEntry.start) and hands it over to the
 * lifecycle. Each step runs only if the one before left no exception pending.
 */
void load_java_side(JNIEnv *jni) {
    jobject loader = agent_loader(jni);
    jclass entry = loader == NULL || !bind_natives(jni, loader) ? NULL
            : class_in(jni, loader, JAVA_ENTRY_CLASS, JNI_TRUE);
    jmethodID start = entry == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, entry, JAVA_ENTRY_START_NAME, JAVA_ENTRY_START_DESCRIPTOR);
    jstring arguments = start == NULL ? NULL : java_string(jni, this_copy.arguments);
    jstring claimed = start == NULL || (*jni)->ExceptionCheck(jni) ? NULL : java_string(jni, this_copy.banner);
    jobject started = claimed == NULL ? NULL : (*jni)->CallStaticObjectMethod(jni, entry, start, arguments, claimed);
    if (started != NULL && !(*jni)->ExceptionCheck(jni) && java_side_serving(jni, started)) {
        return;
    }
    if (start == NULL || (*jni)->ExceptionCheck(jni)) {
        char *why = take_exception(jni, "out of memory");
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: could not load the"
                " agent from %s: %s\n", this_copy.jar_path, why);
        free(why);
    }
    java_side_failed();
}

/*
 * The reads of the direct clock that rewritten sites have made, as the clock counts them; -1 where they cannot be read
 * (the clock not defined, as when JMX or a detach asked for the Java side first).
 */
static long direct_reads(JNIEnv *jni) {
    /* Only the start thread reads the count, at each step: the field is looked up once. */
    static jfieldID field;
    jclass clock = defined_clock();
    if (field == NULL && clock != NULL) {
        field = (*jni)->GetStaticFieldID(jni, clock, JAVA_DIRECT_READS_NAME, JAVA_DIRECT_READS_DESCRIPTOR);
    }
    jlongArray stripes = field == NULL ? NULL : (*jni)->GetStaticObjectField(jni, clock, field);
    jlong *counts = stripes == NULL ? NULL : (*jni)->GetLongArrayElements(jni, stripes, NULL);
    if (counts == NULL) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    long reads = 0;
    for (jsize i = 0, length = (*jni)->GetArrayLength(jni, stripes); i < length; i++) {
        reads += (long) counts[i];
    }
    (*jni)->ReleaseLongArrayElements(jni, stripes, counts, JNI_ABORT);
    (*jni)->DeleteLocalRef(jni, stripes);
    return reads;
}

/*
 * Waits for the clock to be read often enough (START_READS_PER_SECOND), or for the Java side to be asked for, in
 * Java's Thread.sleep: the JVM's exit waits up to 300 ms for a thread of its own that sits in native code.
 */
static void await_reads(JNIEnv *jni) {
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID sleep = thread_class == NULL ? NULL : (*jni)->GetStaticMethodID(jni, thread_class, "sleep", "(J)V");
    long reads_needed = caches_always(&this_copy.options) ? 1
            : START_READS_PER_SECOND * START_READS_STEP_MILLIS / 1000;
    long reads_before = -1;
    while (sleep != NULL && !java_side_asked_within(0)) {
        long reads = direct_reads(jni);
        if (reads < 0 || (reads_before >= 0 && reads - reads_before >= reads_needed)) {
            return;
        }
        reads_before = reads;
        (*jni)->CallStaticVoidMethod(jni, thread_class, sleep, (jlong) START_READS_STEP_MILLIS);
        if ((*jni)->ExceptionCheck(jni)) {
            /* Interrupted: start now rather than call Java with the exception pending. */
            return;
        }
    }
}

/*
 * The start thread: waits out the start delay and the class loading in scope after it, then for reads of the clock,
 * then loads the Java side. Until the delay is over it is a thread of the library's own, outside the JVM, which
 * neither sees it nor waits for it: a Java thread made as the clock is defined, inside the start, costs the start
 * (benchmarks/README.md). Then it joins the JVM, as a daemon, to count the reads.
 */
static void *delayed_start(void *unused) {
    (void) unused;
    /* Until the delay is nearly over, only JMX's start or a detach request can end the wait. */
    int waited = START_DELAY_MILLIS - START_QUIET_MILLIS;
    int asked = java_side_asked_within(attached(this_copy.way) ? 0 : waited);
    long scanned_before = classes_scanned();
    while (!asked && waited < START_DELAY_MAX_MILLIS) {
        asked = java_side_asked_within(START_QUIET_MILLIS);
        waited += START_QUIET_MILLIS;
        long scanned = classes_scanned();
        if (scanned == scanned_before) {
            break;
        }
        scanned_before = scanned;
    }
    JavaVMAttachArgs thread = {JNI_VERSION_1_8, START_THREAD_NAME, NULL};
    JNIEnv *jni = NULL;
    if ((*start_vm)->AttachCurrentThreadAsDaemon(start_vm, (void **) &jni, &thread) != JNI_OK) {
        ticker_did_not_start("the JVM refused the start thread");
        java_side_failed();
        return NULL;
    }
    if (!asked) {
        await_reads(jni);
    }
    (*jni)->ExceptionClear(jni);
    load_java_side(jni);
    (*start_vm)->DetachCurrentThread(start_vm);
    return NULL;
}

int start_thread(JNIEnv *jni) {
    pthread_attr_t attributes;
    pthread_t thread;
    int error = (*jni)->GetJavaVM(jni, &start_vm) != JNI_OK ? EINVAL : pthread_attr_init(&attributes);
    if (error == 0) {
        size_t stack = 0;
        error = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        if (error == 0 && pthread_attr_getstacksize(&attributes, &stack) == 0 && stack < START_THREAD_STACK_BYTES) {
            error = pthread_attr_setstacksize(&attributes, START_THREAD_STACK_BYTES);
        }
        error = error != 0 ? error : pthread_create(&thread, &attributes, delayed_start, NULL);
        pthread_attr_destroy(&attributes);
    }
    if (error != 0) {
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: no thread for its"
                " start: %s\n", strerror(error));
    }
    return error == 0;
}
