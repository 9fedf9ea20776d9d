/*
 * The Java side's lifecycle: the agent's Java (Installation, from clock-agent.jar) that runs the ticker, counts the
 * sites, reports and detaches, as this library's C half tells it. One state (java_side_state) says where it is, and
 * changes in one place (after); the news it acts on (the clock defined, JMX starting, a detach asked for) and the
 * classes it counts the sites of are held for it until it serves, then told once each.
 *
 * When it starts: where sites are counted, as the JVM becomes this copy's, before main; otherwise on a thread of its
 * own (the start thread), past the service's start (START_DELAY_MILLIS, then while classes in scope go on loading)
 * and once the clock is read often enough that caching could pay, so that a JVM that never loads a class to rewrite
 * or seldom reads the clock never loads the Java side, and a service's start does not share its CPUs with it; earlier
 * as JMX starts, for the MBean, or as a detach is asked for. Attached to a service that runs, there is no start to
 * keep out of. How it loads is java_side_loader.c's.
 *
 * The lock: java_side_lock guards the state, the news and the held classes. It is the innermost (see clock_lock in
 * class_load_hook.c): nothing calls Java or takes another lock with it held.
 *
 * May include: agent_copy.h, held_classes.h, java_side.h, java_side_loader.h, jni_helpers.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "agent_copy.h"
#include "held_classes.h"
#include "java_contract.h"
#include "java_side.h"
#include "java_side_loader.h"
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

static pthread_mutex_t java_side_lock = PTHREAD_MUTEX_INITIALIZER;
static java_side_state side = SIDE_UNWANTED;
static unsigned pending_news;
/* The classes to show the Java side, held until it serves. */
static held_classes held_for_java;
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
/* The clock once defined, for its write access and its count of direct reads; set by the hook. */
static jclass cached_clock;
/* The JVM the start thread joins once it has something to ask of Java. */
static JavaVM *start_vm;

static void ticker_did_not_start(const char *why) {
    fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: %s\n", why);
}

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
    jclass clock = __atomic_load_n(&cached_clock, __ATOMIC_SEQ_CST);
    jobject access = call_static(jni, clock, JAVA_CLOCK_WRITE_ACCESS_NAME, JAVA_CLOCK_WRITE_ACCESS_DESCRIPTOR, NULL);
    if (access == NULL) {
        char why[EXCEPTION_LINE_SIZE];
        ticker_did_not_start(take_exception(jni, "no lookup", why));
        return;
    }
    call_java_side(jni, clock_defined_method, clock, access);
}

/* Tells the Java side, if it serves, what it has not been told yet: the classes held for it, then the news. */
static void tell(JNIEnv *jni) {
    pthread_mutex_lock(&java_side_lock);
    int serving = side == SIDE_SERVING;
    held_class *held = serving ? take_held(&held_for_java) : NULL;
    unsigned news = serving ? pending_news : 0;
    if (serving) {
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

/* Takes the started Java side with its methods, and tells it what it missed; false if memory runs short. */
static int serve(JNIEnv *jni, jobject started, const installation_methods *methods) {
    jobject global = (*jni)->NewGlobalRef(jni, started);
    if (global == NULL) {
        (*jni)->ExceptionClear(jni);
        ticker_did_not_start("out of memory");
        return 0;
    }
    pthread_mutex_lock(&java_side_lock);
    clock_defined_method = methods->clock_defined;
    rewrote_natively_method = methods->rewrote_natively;
    left_instant_reads_method = methods->left_instant_reads;
    jmx_starting_method = methods->jmx_starting;
    detach_requested_method = methods->detach_requested;
    installation = global;
    happened(ON_SERVING);
    pthread_mutex_unlock(&java_side_lock);
    tell(jni);
    return 1;
}

/* The Java side will not start: what was held for it is freed, and nothing more is held. */
static void java_side_failed(void) {
    pthread_mutex_lock(&java_side_lock);
    happened(ON_FAILED);
    held_class *held = take_held(&held_for_java);
    pthread_mutex_unlock(&java_side_lock);
    free_held(held);
}

/* Whether JMX's start or a detach request asks for the Java side now, after waiting up to `millis` for one. */
static int asked_within(long millis) {
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

/* Loads and starts the Java side on this thread. */
static void start_here(JNIEnv *jni) {
    installation_methods methods;
    jobject started = load_java_side(jni, &methods);
    if (started == NULL || !serve(jni, started, &methods)) {
        java_side_failed();
    }
    (*jni)->DeleteLocalRef(jni, started);
}

/*
 * The reads of the direct clock that rewritten sites have made, as the clock counts them; -1 where they cannot be read
 * (the clock not defined, as when JMX or a detach asked for the Java side first).
 */
static long direct_reads(JNIEnv *jni) {
    /* Only the start thread reads the count, at each step: the field is looked up once. */
    static jfieldID field;
    jclass clock = __atomic_load_n(&cached_clock, __ATOMIC_SEQ_CST);
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
    while (sleep != NULL && !asked_within(0)) {
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
    /* The JVM names only the threads it starts; the kernel keeps 15 bytes, which top -H and /proc show. */
    prctl(PR_SET_NAME, START_THREAD_NAME, 0, 0, 0);
    /* Until the delay is nearly over, only JMX's start or a detach request can end the wait. */
    int waited = START_DELAY_MILLIS - START_QUIET_MILLIS;
    int asked = asked_within(attached(this_copy.way) ? 0 : waited);
    long scanned_before = __atomic_load_n(&this_copy.classes_scanned, __ATOMIC_RELAXED);
    while (!asked && waited < START_DELAY_MAX_MILLIS) {
        asked = asked_within(START_QUIET_MILLIS);
        waited += START_QUIET_MILLIS;
        long scanned = __atomic_load_n(&this_copy.classes_scanned, __ATOMIC_RELAXED);
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
    start_here(jni);
    (*start_vm)->DetachCurrentThread(start_vm);
    return NULL;
}

/* Starts the start thread, which waits for its moment and then loads the Java side; false if it could not. */
static int start_thread(JNIEnv *jni) {
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

void java_side_clock_defined(JNIEnv *jni, jclass defined) {
    __atomic_store_n(&cached_clock, defined, __ATOMIC_SEQ_CST);
    java_side_news(jni, NEWS_CLOCK_DEFINED);
}

void java_side_show(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    pthread_mutex_lock(&java_side_lock);
    int serving = side == SIDE_SERVING;
    if (!serving && side != SIDE_GONE) {
        hold_class(&held_for_java, name, length, bytes, rewritten);
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
        start_here(jni);
    } else if (begun) {
        begin_start(jni);
    }
}
