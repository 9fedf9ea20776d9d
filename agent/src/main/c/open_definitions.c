/*
 * The definitions the hook handed rewritten bytes to that may not have completed. The JVM defines a class from the
 * hook's bytes only after every agent's hook after this one has run and the class is parsed: however long that takes,
 * the class is defined on the thread the hook ran on, before the frame the JVM called the hook under (the defining
 * native method, or a RetransformClasses of another agent's) returns. A detach takes the classes it restores from
 * GetLoadedClasses, which holds none still being defined, so it first waits for those frames to return. Each is known
 * by its thread, its height from the bottom of the stack and its method: a thread whose frame at that height is no
 * longer that method has left it. A thread that defines again at the same height is waited for again, as a sample may
 * meet it inside the next definition, which no hook serves any more.
 *
 * May include: open_definitions.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "open_definitions.h"

typedef struct open_definition {
    struct open_definition *next;
    /* Weak, so that a thread that ends is not kept. */
    jweak thread;
    jint height;
    jmethodID method;
} open_definition;

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
/* Guarded by open_lock. */
static open_definition *open_first;

/* How long the detach sleeps between two looks at the threads whose definitions are still open. */
#define OPEN_POLL_NANOS 1000000L

/* Unlinks the definition `at` points to, which then points to the next. */
static void forget(JNIEnv *jni, open_definition **at) {
    open_definition *gone = *at;
    *at = gone->next;
    (*jni)->DeleteWeakGlobalRef(jni, gone->thread);
    free(gone);
}

void definition_opened(jvmtiEnv *jvmti, JNIEnv *jni) {
    jthread thread = NULL;
    jint height = 0;
    jvmtiFrameInfo top;
    jint frames = 0;
    /* Without a Java frame (JNI DefineClass on a thread of native code) there is no frame to watch. */
    if ((*jvmti)->GetCurrentThread(jvmti, &thread) != JVMTI_ERROR_NONE
            || (*jvmti)->GetFrameCount(jvmti, NULL, &height) != JVMTI_ERROR_NONE || height == 0
            || (*jvmti)->GetStackTrace(jvmti, NULL, 0, 1, &top, &frames) != JVMTI_ERROR_NONE || frames != 1) {
        (*jni)->DeleteLocalRef(jni, thread);
        return;
    }
    open_definition *opened = malloc(sizeof *opened);
    jweak weak = opened == NULL ? NULL : (*jni)->NewWeakGlobalRef(jni, thread);
    pthread_mutex_lock(&open_lock);
    /*
     * This thread's definitions at this height or above have closed, as its stack is no higher now: one a
     * thread no longer runs is dropped too.
     */
    for (open_definition **at = &open_first; *at != NULL;) {
        int closed = (*jni)->IsSameObject(jni, (*at)->thread, NULL)
                || ((*jni)->IsSameObject(jni, (*at)->thread, thread) && (*at)->height >= height);
        if (closed) {
            forget(jni, at);
        } else {
            at = &(*at)->next;
        }
    }
    if (weak != NULL) {
        *opened = (open_definition) {open_first, weak, height, top.method};
        open_first = opened;
    } else {
        free(opened);
    }
    pthread_mutex_unlock(&open_lock);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* Whether the thread's frame at the definition's height is still the method the hook was called under. */
static int still_open(jvmtiEnv *jvmti, JNIEnv *jni, const open_definition *definition) {
    jthread thread = (*jni)->NewLocalRef(jni, definition->thread);
    if (thread == NULL) {
        return 0;
    }
    jvmtiFrameInfo frame;
    jint frames = 0;
    /* A negative depth counts from the bottom; a stack lower than the height is an error, and closed. */
    int open = (*jvmti)->GetStackTrace(jvmti, thread, -definition->height, 1, &frame, &frames) == JVMTI_ERROR_NONE
            && frames == 1 && frame.method == definition->method;
    (*jni)->DeleteLocalRef(jni, thread);
    return open;
}

int await_open_definitions(jvmtiEnv *jvmti, JNIEnv *jni, long long deadline_nanos) {
    jthread caller = NULL;
    if ((*jvmti)->GetCurrentThread(jvmti, &caller) != JVMTI_ERROR_NONE) {
        caller = NULL;
    }
    int open = 0;
    for (;;) {
        pthread_mutex_lock(&open_lock);
        open = 0;
        for (open_definition **at = &open_first; *at != NULL;) {
            /* The caller's own would never close while it waits here; it is in none, as it runs the detach. */
            if (!(*jni)->IsSameObject(jni, (*at)->thread, caller) && still_open(jvmti, jni, *at)) {
                at = &(*at)->next;
                open++;
            } else {
                forget(jni, at);
            }
        }
        pthread_mutex_unlock(&open_lock);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (open == 0 || now.tv_sec * 1000000000LL + now.tv_nsec >= deadline_nanos) {
            break;
        }
        struct timespec poll = {0, OPEN_POLL_NANOS};
        nanosleep(&poll, NULL);
    }
    (*jni)->DeleteLocalRef(jni, caller);
    return open;
}
