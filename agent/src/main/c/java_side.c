/*
 * The Java side's lifecycle: the agent's Java (Installation, from clock-agent.jar) that runs the ticker, counts the
 * sites, reports and detaches, as this library's C half tells it. One state (java_side_state) says where it is, and
 * changes in one place (after); the news it acts on (the clock defined, JMX starting, a detach asked for) and the
 * classes it counts the sites of are held for it until it serves, then told once each. When and how it starts is
 * java_side_start.c's.
 *
 * The lock: java_side_lock guards the state, the news and the held classes. Nothing calls Java with it held, and no
 * other lock of the library is taken with it held (clock_lock, class_load_hook.c, is never held as it is taken).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_copy.h"
#include "class_load_hook.h"
#include "java_contract.h"
#include "java_side.h"
#include "java_side_start.h"
#include "jni_helpers.h"

typedef enum {
    /* Nothing asks for it yet, and the JVM is not yet this copy's. */
    SIDE_UNWANTED,
    /* The JVM is this copy's: the Java side starts as soon as something asks for it. */
    SIDE_READY,
    /* Asked for before the JVM was this copy's (a class in scope at VMInit): it starts as that comes. */
    SIDE_WANTED,
    /* Its start is under way: the start thread waits for its moment, or it loads. News and classes are held. */
    SIDE_STARTING,
    /* Started: told at once. */
    SIDE_SERVING,
    /* Could not start: nothing is held for it. */
    SIDE_GONE
} java_side_state;

typedef enum { ON_JVM_TAKEN, ON_WANTED, ON_START_HERE, ON_SERVING, ON_FAILED } side_event;

/* A class to show the Java side, held until it serves, with its original bytes. */
typedef struct held_class {
    struct held_class *next;
    char *name;
    jint length;
    unsigned char *bytes;
    int rewritten;
} held_class;

static pthread_mutex_t java_side_lock = PTHREAD_MUTEX_INITIALIZER;
static java_side_state side = SIDE_UNWANTED;
static unsigned pending_news;
static held_class *held_first;
static held_class **held_last = &held_first;
/* The Java side once it serves, and its methods, set together before the state says so. */
static jobject installation;
static jmethodID clock_defined_method;
static jmethodID rewrote_natively_method;
static jmethodID left_instant_reads_method;
static jmethodID jmx_starting_method;
static jmethodID detach_requested_method;
/*
 * Signalled when JMX's start or a detach request asks for the Java side: the start thread waits on it rather than
 * waking to look, since each wake inside a service's start costs the start. It measures on the monotonic clock.
 */
static pthread_cond_t asked_signal;
static pthread_once_t asked_signal_once = PTHREAD_ONCE_INIT;

/* The one place the state changes: what an event leads to. */
static java_side_state after(java_side_state now, side_event event) {
    switch (event) {
    case ON_JVM_TAKEN:
        return now == SIDE_UNWANTED ? SIDE_READY : now == SIDE_WANTED ? SIDE_STARTING : now;
    case ON_WANTED:
        return now == SIDE_UNWANTED ? SIDE_WANTED : now == SIDE_READY ? SIDE_STARTING : now;
    case ON_START_HERE:
        return now == SIDE_UNWANTED || now == SIDE_READY || now == SIDE_WANTED ? SIDE_STARTING : now;
    case ON_SERVING:
        return now == SIDE_STARTING ? SIDE_SERVING : now;
    case ON_FAILED:
        return now == SIDE_STARTING ? SIDE_GONE : now;
    }
    return now;
}

/* Applies an event, with java_side_lock held; whether it began the Java side's start, which the caller then makes. */
static int happened(side_event event) {
    java_side_state before = side;
    side = after(before, event);
    return before != SIDE_STARTING && side == SIDE_STARTING;
}

static void make_asked_signal(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&asked_signal, &attributes);
    pthread_condattr_destroy(&attributes);
}

/* Made on first use, from whichever thread comes first: a hook's or the start thread. */
static void asked_signal_ready(void) {
    pthread_once(&asked_signal_once, make_asked_signal);
}

static void free_held(held_class *held) {
    while (held != NULL) {
        held_class *next = held->next;
        free(held->name);
        free(held->bytes);
        free(held);
        held = next;
    }
}

/* Holds a copy of a class for the Java side, with java_side_lock held; dropped if memory runs short. */
static void hold(const char *name, jint length, const unsigned char *bytes, int rewritten) {
    held_class *held = malloc(sizeof *held);
    char *name_copy = strdup(name);
    unsigned char *bytes_copy = malloc((size_t) length);
    if (held == NULL || name_copy == NULL || bytes_copy == NULL) {
        free(held);
        free(name_copy);
        free(bytes_copy);
        return;
    }
    memcpy(bytes_copy, bytes, (size_t) length);
    *held = (held_class) {NULL, name_copy, length, bytes_copy, rewritten};
    *held_last = held;
    held_last = &held->next;
}

/* Calls a method of the Java side, which reads only the arguments it takes; a failure there changes nothing here. */
static void call_java_side(JNIEnv *jni, jmethodID method, jobject first, jobject second) {
    (*jni)->CallVoidMethod(jni, installation, method, first, second);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
    }
}

static void show_now(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    jstring java_name = (*jni)->NewStringUTF(jni, name);
    jbyteArray original = java_name == NULL ? NULL : (*jni)->NewByteArray(jni, length);
    if (original != NULL) {
        (*jni)->SetByteArrayRegion(jni, original, 0, length, (const jbyte *) bytes);
        call_java_side(jni, rewritten ? rewrote_natively_method : left_instant_reads_method, java_name, original);
        (*jni)->DeleteLocalRef(jni, original);
    }
    (*jni)->ExceptionClear(jni);
    if (java_name != NULL) {
        (*jni)->DeleteLocalRef(jni, java_name);
    }
}

/* The clock, with its write access, which only JNI can take from its private method, for the ticker. */
static void tell_clock(JNIEnv *jni) {
    jclass clock = defined_clock();
    jobject access = call_static(jni, clock, JAVA_CLOCK_WRITE_ACCESS_NAME, JAVA_CLOCK_WRITE_ACCESS_DESCRIPTOR, NULL);
    if (access == NULL) {
        char *why = take_exception(jni, "no lookup");
        ticker_did_not_start(why);
        free(why);
        return;
    }
    call_java_side(jni, clock_defined_method, clock, access);
}

/* Tells the Java side, if it serves, what it has not been told yet: the classes held for it, then the news. */
static void tell(JNIEnv *jni) {
    pthread_mutex_lock(&java_side_lock);
    int serving = side == SIDE_SERVING;
    held_class *held = serving ? held_first : NULL;
    unsigned news = serving ? pending_news : 0;
    if (serving) {
        held_first = NULL;
        held_last = &held_first;
        pending_news = 0;
    }
    pthread_mutex_unlock(&java_side_lock);
    for (held_class *each = held; each != NULL; each = each->next) {
        show_now(jni, each->name, each->length, each->bytes, each->rewritten);
    }
    free_held(held);
    if (news & NEWS_CLOCK_DEFINED) {
        tell_clock(jni);
    }
    if (news & NEWS_JMX_STARTING) {
        call_java_side(jni, jmx_starting_method, NULL, NULL);
    }
    if (news & NEWS_DETACH_REQUESTED) {
        call_java_side(jni, detach_requested_method, NULL, NULL);
    }
}

/* Makes the start an event began: the start thread, or the failure if there can be none. */
static void begin_start(JNIEnv *jni) {
    if (!start_thread(jni)) {
        java_side_failed();
    }
}

void java_side_news(JNIEnv *jni, java_side_news_kind news) {
    asked_signal_ready();
    pthread_mutex_lock(&java_side_lock);
    pending_news |= (unsigned) news;
    if (news != NEWS_CLOCK_DEFINED) {
        pthread_cond_broadcast(&asked_signal);
    }
    int begun = happened(ON_WANTED);
    pthread_mutex_unlock(&java_side_lock);
    if (begun) {
        begin_start(jni);
    }
    tell(jni);
}

void java_side_show(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    pthread_mutex_lock(&java_side_lock);
    int serving = side == SIDE_SERVING;
    if (!serving && side != SIDE_GONE) {
        hold(name, length, bytes, rewritten);
    }
    pthread_mutex_unlock(&java_side_lock);
    if (serving) {
        show_now(jni, name, length, bytes, rewritten);
    }
}

void java_side_jvm_taken(JNIEnv *jni) {
    int here = this_copy.counts_sites;
    pthread_mutex_lock(&java_side_lock);
    int begun = happened(here ? ON_START_HERE : ON_JVM_TAKEN);
    pthread_mutex_unlock(&java_side_lock);
    if (begun && here) {
        load_java_side(jni);
    } else if (begun) {
        begin_start(jni);
    }
}

int java_side_serving(JNIEnv *jni, jobject started) {
    jclass installation_class = (*jni)->GetObjectClass(jni, started);
    jmethodID clock_defined = (*jni)->GetMethodID(jni, installation_class, JAVA_CLOCK_DEFINED_NAME,
                                                  JAVA_CLOCK_DEFINED_DESCRIPTOR);
    jmethodID rewrote_natively = clock_defined == NULL ? NULL : (*jni)->GetMethodID(jni, installation_class,
            JAVA_REWROTE_NATIVELY_NAME, JAVA_REWROTE_NATIVELY_DESCRIPTOR);
    jmethodID left_instant_reads = rewrote_natively == NULL ? NULL : (*jni)->GetMethodID(jni, installation_class,
            JAVA_LEFT_INSTANT_READS_NAME, JAVA_LEFT_INSTANT_READS_DESCRIPTOR);
    jmethodID jmx = left_instant_reads == NULL ? NULL : (*jni)->GetMethodID(jni, installation_class,
            JAVA_JMX_STARTING_NAME, JAVA_JMX_STARTING_DESCRIPTOR);
    jmethodID detach = jmx == NULL ? NULL : (*jni)->GetMethodID(jni, installation_class,
            JAVA_DETACH_REQUESTED_NAME, JAVA_DETACH_REQUESTED_DESCRIPTOR);
    jobject global = detach == NULL ? NULL : (*jni)->NewGlobalRef(jni, started);
    if (global == NULL) {
        return 0;
    }
    pthread_mutex_lock(&java_side_lock);
    clock_defined_method = clock_defined;
    rewrote_natively_method = rewrote_natively;
    left_instant_reads_method = left_instant_reads;
    jmx_starting_method = jmx;
    detach_requested_method = detach;
    installation = global;
    happened(ON_SERVING);
    pthread_mutex_unlock(&java_side_lock);
    tell(jni);
    return 1;
}

void java_side_failed(void) {
    pthread_mutex_lock(&java_side_lock);
    happened(ON_FAILED);
    held_class *held = held_first;
    held_first = NULL;
    held_last = &held_first;
    pthread_mutex_unlock(&java_side_lock);
    free_held(held);
}

int java_side_asked_within(long millis) {
    asked_signal_ready();
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += millis / 1000;
    deadline.tv_nsec += (millis % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    const unsigned asking = NEWS_JMX_STARTING | NEWS_DETACH_REQUESTED;
    pthread_mutex_lock(&java_side_lock);
    int waited = 0;
    while (millis > 0 && !(pending_news & asking) && waited != ETIMEDOUT) {
        waited = pthread_cond_timedwait(&asked_signal, &java_side_lock, &deadline);
    }
    int asked = (pending_news & asking) != 0;
    pthread_mutex_unlock(&java_side_lock);
    return asked;
}
