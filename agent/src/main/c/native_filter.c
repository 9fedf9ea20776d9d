/*
 * The native class filter (on unless nativeFilter=false): a JVMTI ClassFileLoadHook that turns away, without
 * entering Java, every class the agent would hand back unchanged, rewrites the classes that read the clock
 * (call_site_rewriter.c), and passes the rest to the agent's Java side (NativeClassFilter.filtered).
 *
 * Why native: while any Java transformer is registered, the JVM copies every class file it loads into a new Java
 * array and calls into Java with it, and the agent's check and rewriter then run interpreted until the JIT has
 * compiled them. Here the check is a name comparison and a memmem, and the Java transformers are removed.
 *
 * This filter only ever says "not this one" for classes the Java side would leave alone too: classes of the boot,
 * platform and agent loaders, classes outside the scope, and classes whose bytes lack the clock method's name. What
 * it does not rewrite itself, the Java side decides in full, so a class is never changed otherwise than the Java
 * rewriter would change it. Where something shows call sites (verbose, report), each class rewritten here is shown to
 * the Java side afterwards, which counts its sites read-only: what is reported is what this filter did.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call_site_rewriter.h"
#include "class_scan.h"
#include "jvmti_allocate.h"

/* How long stop() waits for hooks still running with the old settings before it leaks them instead of freeing. */
#define DRAIN_TIMEOUT_NANOS 1000000000L
#define DRAIN_POLL_NANOS 1000000L

typedef struct {
    jint count;
    char **prefixes;
    size_t *lengths;
} prefix_list;

/* What one installation of the agent asked for; replaced as a whole. */
typedef struct {
    /* Tells apart the installations of one JVM's life, for the check each thread makes once (seen_by_java). */
    unsigned installation;
    jobject target;
    jmethodID filtered;
    jmethodID examined_by_java;
    jmethodID rewriting_natively;
    jmethodID rewrote_natively;
    jmethodID left_instant_reads_natively;
    char *clock_internal_name;
    /* Whether something shows call sites: then the Java side counts them in each class rewritten here. */
    int reports_rewrites;
    /* Set once this side has told the Java side that it rewrites, which starts the ticker as a Java rewrite does. */
    int ticker_asked;
    jobject platform_loader;
    jobject agent_loader;
    prefix_list includes;
    prefix_list excludes;
    prefix_list cached_instants;
    prefix_list ignored;
    /* Whole class names, passed on whatever their loader: a detach request, the JDK's MBean server. */
    prefix_list passed;
} settings;

static jvmtiEnv *jvmti;
/* Each copy of the agent calls through natives of its own class, so start and stop are kept apart here. */
static pthread_mutex_t start_stop = PTHREAD_MUTEX_INITIALIZER;
static settings *active;
/* Hooks between reading `active` and being done with it; stop() frees old settings only once this is back to 0. */
static long hooks_running;
static long classes_scanned;
static long classes_rewritten;
static unsigned installations;
/* The installation whose hand-over this thread has been checked against, see seen_by_java. */
static __thread unsigned checked_installation;
/* Hooks on this thread, nested when the Java side loads a class: stop() from inside one must not wait for itself. */
static __thread int hook_depth;

static int equals_any(const prefix_list *list, const char *name) {
    for (jint i = 0; i < list->count; i++) {
        if (strcmp(name, list->prefixes[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static int starts_with_any(const prefix_list *list, const char *name) {
    for (jint i = 0; i < list->count; i++) {
        if (strncmp(name, list->prefixes[i], list->lengths[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The Java side's RewriteScope, by name: excludes win, no include means everything, the JDK and agent never. */
static int in_scope(const settings *s, const char *name) {
    return !starts_with_any(&s->excludes, name)
            && (s->includes.count == 0 || starts_with_any(&s->includes, name))
            && !starts_with_any(&s->ignored, name);
}

/*
 * Whether the Java transformer examined (and counted) this very class load before it stepped aside: at the hand-over,
 * a class can be half-way through the JVM's hooks, past the Java transformer and not yet here. Asked once per thread
 * and installation: the first load this thread makes that the Java side did not examine shows it is past that point.
 */
static int seen_by_java(settings *s, JNIEnv *jni, jobject loader, const char *name) {
    if (checked_installation == s->installation) {
        return 0;
    }
    jstring java_name = (*jni)->NewStringUTF(jni, name);
    jboolean seen = java_name != NULL
            && (*jni)->CallBooleanMethod(jni, s->target, s->examined_by_java, loader, java_name);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        seen = JNI_FALSE;
    }
    if (java_name != NULL) {
        (*jni)->DeleteLocalRef(jni, java_name);
    }
    if (!seen) {
        checked_installation = s->installation;
    }
    return seen;
}

typedef enum { LEAVE, PASS_ON, CLOCK_NAMED } verdict;

static verdict judge(settings *s, JNIEnv *jni, jobject loader, const char *name, jint length,
                     const unsigned char *bytes) {
    if (equals_any(&s->passed, name)) {
        return PASS_ON;
    }
    if (loader == NULL || (*jni)->IsSameObject(jni, loader, s->platform_loader)
            || (*jni)->IsSameObject(jni, loader, s->agent_loader) || !in_scope(s, name)
            || seen_by_java(s, jni, loader, name)) {
        return LEAVE;
    }
    __atomic_add_fetch(&classes_scanned, 1, __ATOMIC_RELAXED);
    return names_clock_method(bytes, length) ? CLOCK_NAMED : LEAVE;
}

/* A Java copy of a class file, or NULL (with an exception pending) if the name was not made or memory is short. */
static jbyteArray java_bytes(JNIEnv *jni, jstring java_name, jint length, const unsigned char *bytes) {
    jbyteArray copy = java_name == NULL ? NULL : (*jni)->NewByteArray(jni, length);
    if (copy != NULL) {
        (*jni)->SetByteArrayRegion(jni, copy, 0, length, (const jbyte *) bytes);
    }
    return copy;
}

/* Any failure leaves the class as it was: a pending exception is cleared, and no new bytes are handed back. */
static void hand_to_java(settings *s, jvmtiEnv *env, JNIEnv *jni, jobject loader, const char *name,
                         jint length, const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    jstring java_name = (*jni)->NewStringUTF(jni, name);
    jbyteArray original = java_bytes(jni, java_name, length, bytes);
    jbyteArray rewritten = NULL;
    if (original != NULL) {
        rewritten = (*jni)->CallObjectMethod(jni, s->target, s->filtered, loader, java_name, original);
    }
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
        rewritten = NULL;
    }
    if (rewritten != NULL) {
        jint rewritten_length = (*jni)->GetArrayLength(jni, rewritten);
        unsigned char *copy = jvmti_allocate(env, (size_t) rewritten_length);
        if (copy != NULL) {
            (*jni)->GetByteArrayRegion(jni, rewritten, 0, rewritten_length, (jbyte *) copy);
            *new_length = rewritten_length;
            *new_bytes = copy;
        }
        (*jni)->DeleteLocalRef(jni, rewritten);
    }
    if (original != NULL) {
        (*jni)->DeleteLocalRef(jni, original);
    }
    if (java_name != NULL) {
        (*jni)->DeleteLocalRef(jni, java_name);
    }
}

/* With the first class this side rewrites: a rewritten class reads a clock that only the ticker keeps cached. */
static void ask_for_ticker(settings *s, JNIEnv *jni) {
    if (__atomic_exchange_n(&s->ticker_asked, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    (*jni)->CallVoidMethod(jni, s->target, s->rewriting_natively);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
    }
}

/*
 * Shows the Java side a class rewritten here, or one left with reads of instants direct, for the counts it reports;
 * a failure there changes nothing here.
 */
static void report_class(settings *s, JNIEnv *jni, jmethodID method, const char *name, jint length,
                         const unsigned char *bytes) {
    jstring java_name = (*jni)->NewStringUTF(jni, name);
    jbyteArray original = java_bytes(jni, java_name, length, bytes);
    if (original != NULL) {
        (*jni)->CallVoidMethod(jni, s->target, method, java_name, original);
        (*jni)->DeleteLocalRef(jni, original);
    }
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
    }
    if (java_name != NULL) {
        (*jni)->DeleteLocalRef(jni, java_name);
    }
}

static void JNICALL on_class_file_load(jvmtiEnv *env, JNIEnv *jni, jclass redefined, jobject loader,
                                       const char *name, jobject protection_domain, jint length,
                                       const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    (void) redefined;
    (void) protection_domain;
    if (name == NULL) {
        return;
    }
    hook_depth++;
    __atomic_add_fetch(&hooks_running, 1, __ATOMIC_SEQ_CST);
    settings *s = __atomic_load_n(&active, __ATOMIC_SEQ_CST);
    verdict v = s == NULL ? LEAVE : judge(s, jni, loader, name, length, bytes);
    if (v == CLOCK_NAMED) {
        int cached_instants = starts_with_any(&s->cached_instants, name);
        rewrite_outcome outcome = rewrite_call_sites(bytes, length, s->clock_internal_name, cached_instants,
                                                     jvmti_allocate, env, new_length, new_bytes);
        if (outcome == REWRITE_DONE) {
            ask_for_ticker(s, jni);
            __atomic_add_fetch(&classes_rewritten, 1, __ATOMIC_RELAXED);
            if (s->reports_rewrites) {
                report_class(s, jni, s->rewrote_natively, name, length, bytes);
            }
        } else if (outcome == REWRITE_NOT_NEEDED && s->reports_rewrites && !cached_instants
                && keeps_instant_reads(bytes, length, s->clock_internal_name)) {
            report_class(s, jni, s->left_instant_reads_natively, name, length, bytes);
        }
        v = outcome == REWRITE_LEFT_TO_JAVA ? PASS_ON : LEAVE;
    }
    if (v != LEAVE) {
        hand_to_java(s, env, jni, loader, name, length, bytes, new_length, new_bytes);
    }
    __atomic_sub_fetch(&hooks_running, 1, __ATOMIC_SEQ_CST);
    hook_depth--;
}

static int copy_prefixes(JNIEnv *jni, jobjectArray from, prefix_list *to) {
    to->count = (*jni)->GetArrayLength(jni, from);
    to->prefixes = calloc((size_t) to->count + 1, sizeof *to->prefixes);
    to->lengths = calloc((size_t) to->count + 1, sizeof *to->lengths);
    if (to->prefixes == NULL || to->lengths == NULL) {
        return 0;
    }
    for (jint i = 0; i < to->count; i++) {
        jstring prefix = (*jni)->GetObjectArrayElement(jni, from, i);
        const char *utf = prefix == NULL ? NULL : (*jni)->GetStringUTFChars(jni, prefix, NULL);
        if (utf == NULL) {
            return 0;
        }
        to->prefixes[i] = strdup(utf);
        to->lengths[i] = strlen(utf);
        (*jni)->ReleaseStringUTFChars(jni, prefix, utf);
        (*jni)->DeleteLocalRef(jni, prefix);
        if (to->prefixes[i] == NULL) {
            return 0;
        }
    }
    return 1;
}

static void free_prefixes(prefix_list *list) {
    for (jint i = 0; list->prefixes != NULL && i < list->count; i++) {
        free(list->prefixes[i]);
    }
    free(list->prefixes);
    free(list->lengths);
}

static void free_settings(JNIEnv *jni, settings *s) {
    if (s->target != NULL) {
        (*jni)->DeleteGlobalRef(jni, s->target);
    }
    if (s->platform_loader != NULL) {
        (*jni)->DeleteGlobalRef(jni, s->platform_loader);
    }
    if (s->agent_loader != NULL) {
        (*jni)->DeleteGlobalRef(jni, s->agent_loader);
    }
    free_prefixes(&s->includes);
    free_prefixes(&s->excludes);
    free_prefixes(&s->cached_instants);
    free_prefixes(&s->ignored);
    free_prefixes(&s->passed);
    free(s->clock_internal_name);
    free(s);
}

static settings *new_settings(JNIEnv *jni, jobject target, jobject platform_loader, jobject agent_loader,
                              jobjectArray includes, jobjectArray excludes, jobjectArray cached_instants,
                              jobjectArray ignored, jobjectArray passed, jstring clock_internal_name,
                              jboolean reports_rewrites) {
    settings *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->installation = ++installations;
    s->reports_rewrites = reports_rewrites;
    const char *clock = (*jni)->GetStringUTFChars(jni, clock_internal_name, NULL);
    if (clock != NULL) {
        s->clock_internal_name = strdup(clock);
        (*jni)->ReleaseStringUTFChars(jni, clock_internal_name, clock);
    }
    s->target = (*jni)->NewGlobalRef(jni, target);
    s->platform_loader = (*jni)->NewGlobalRef(jni, platform_loader);
    s->agent_loader = (*jni)->NewGlobalRef(jni, agent_loader);
    jclass target_class = (*jni)->GetObjectClass(jni, target);
    s->filtered = (*jni)->GetMethodID(jni, target_class, "filtered",
                                      "(Ljava/lang/ClassLoader;Ljava/lang/String;[B)[B");
    s->examined_by_java = (*jni)->GetMethodID(jni, target_class, "examinedByJava",
                                              "(Ljava/lang/ClassLoader;Ljava/lang/String;)Z");
    s->rewriting_natively = (*jni)->GetMethodID(jni, target_class, "rewritingNatively", "()V");
    s->rewrote_natively = (*jni)->GetMethodID(jni, target_class, "rewroteNatively", "(Ljava/lang/String;[B)V");
    s->left_instant_reads_natively = (*jni)->GetMethodID(jni, target_class, "leftInstantReadsNatively",
                                                         "(Ljava/lang/String;[B)V");
    if (s->target == NULL || s->platform_loader == NULL || s->agent_loader == NULL || s->filtered == NULL
            || s->examined_by_java == NULL || s->rewriting_natively == NULL || s->rewrote_natively == NULL
            || s->left_instant_reads_natively == NULL
            || s->clock_internal_name == NULL
            || !copy_prefixes(jni, includes, &s->includes) || !copy_prefixes(jni, excludes, &s->excludes)
            || !copy_prefixes(jni, cached_instants, &s->cached_instants)
            || !copy_prefixes(jni, ignored, &s->ignored) || !copy_prefixes(jni, passed, &s->passed)) {
        (*jni)->ExceptionClear(jni);
        free_settings(jni, s);
        return NULL;
    }
    return s;
}

/* Waits until no hook still uses settings taken out of `active`; false if that may not happen (see hook_depth). */
static int drained(void) {
    if (hook_depth > 0) {
        return 0;
    }
    struct timespec poll = {0, DRAIN_POLL_NANOS};
    for (long waited = 0; waited < DRAIN_TIMEOUT_NANOS; waited += DRAIN_POLL_NANOS) {
        if (__atomic_load_n(&hooks_running, __ATOMIC_SEQ_CST) == 0) {
            return 1;
        }
        nanosleep(&poll, NULL);
    }
    return 0;
}

static jstring failure(JNIEnv *jni, const char *what, jvmtiError error) {
    char *name = NULL;
    if (jvmti != NULL) {
        (*jvmti)->GetErrorName(jvmti, error, &name);
    }
    char text[160];
    snprintf(text, sizeof text, "%s failed: %s", what, name == NULL ? "no JVMTI" : name);
    if (name != NULL) {
        (*jvmti)->Deallocate(jvmti, (unsigned char *) name);
    }
    return (*jni)->NewStringUTF(jni, text);
}

static jstring open_jvmti(JNIEnv *jni) {
    JavaVM *vm;
    if ((*jni)->GetJavaVM(jni, &vm) != JNI_OK || (*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        jvmti = NULL;
        return (*jni)->NewStringUTF(jni, "no JVMTI environment");
    }
    /* So that a retransformation starts from the bytes as loaded, and a detach restores them. */
    jvmtiCapabilities capabilities;
    memset(&capabilities, 0, sizeof capabilities);
    capabilities.can_retransform_classes = 1;
    jvmtiError error = (*jvmti)->AddCapabilities(jvmti, &capabilities);
    if (error != JVMTI_ERROR_NONE) {
        return failure(jni, "AddCapabilities(can_retransform_classes)", error);
    }
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.ClassFileLoadHook = on_class_file_load;
    error = (*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint) sizeof callbacks);
    return error == JVMTI_ERROR_NONE ? NULL : failure(jni, "SetEventCallbacks", error);
}

/* Returns null, or why the filter could not start. Never runs twice at once, nor beside stop. */
static jstring start(JNIEnv *jni, jclass calls, jobject target, jobject platform_loader, jobject agent_loader,
                     jobjectArray includes, jobjectArray excludes, jobjectArray cached_instants,
                     jobjectArray ignored, jobjectArray passed, jstring clock_internal_name,
                     jboolean reports_rewrites) {
    (void) calls;
    pthread_mutex_lock(&start_stop);
    static int jvmti_opened;
    jstring not_started = NULL;
    if (!jvmti_opened) {
        not_started = open_jvmti(jni);
        jvmti_opened = not_started == NULL;
    }
    settings *s = NULL;
    if (not_started == NULL) {
        s = new_settings(jni, target, platform_loader, agent_loader, includes, excludes, cached_instants, ignored,
                         passed, clock_internal_name, reports_rewrites);
        if (s == NULL) {
            not_started = (*jni)->NewStringUTF(jni, "out of memory");
        }
    }
    if (s != NULL) {
        __atomic_store_n(&active, s, __ATOMIC_SEQ_CST);
        jvmtiError error = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK,
                                                              NULL);
        if (error != JVMTI_ERROR_NONE) {
            __atomic_store_n(&active, NULL, __ATOMIC_SEQ_CST);
            if (drained()) {
                free_settings(jni, s);
            }
            not_started = failure(jni, "SetEventNotificationMode(ClassFileLoadHook)", error);
        }
    }
    pthread_mutex_unlock(&start_stop);
    return not_started;
}

/* Once it returns, no class load starts a call into Java here. */
static void stop(JNIEnv *jni, jclass calls) {
    (void) calls;
    pthread_mutex_lock(&start_stop);
    if (jvmti != NULL) {
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
        settings *s = __atomic_exchange_n(&active, NULL, __ATOMIC_SEQ_CST);
        if (s != NULL && drained()) {
            free_settings(jni, s);
        }
    }
    pthread_mutex_unlock(&start_stop);
}

static jlong scanned(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&classes_scanned, __ATOMIC_RELAXED);
}

static jlong rewritten(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&classes_rewritten, __ATOMIC_RELAXED);
}

/*
 * Binds the natives of a copy's LibraryCalls class, which its own class loader defines, to this library, which the
 * boot loader holds: plain native calls from then on, where calls through method handles would cost the JVM's
 * first lambda forms milliseconds of startup. Returns null, or why it could not bind.
 */
JNIEXPORT jstring JNICALL Java_java_lang_ClockAgentNativeFilterLibrary_bind(JNIEnv *jni, jclass library_class,
                                                                             jclass calls) {
    (void) library_class;
    static const JNINativeMethod natives[] = {
        {"start", "(Ljava/lang/Object;Ljava/lang/ClassLoader;Ljava/lang/ClassLoader;[Ljava/lang/String;"
                  "[Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/String;Ljava/lang/String;Z)"
                  "Ljava/lang/String;",
         (void *) start},
        {"stop", "()V", (void *) stop},
        {"classesScanned", "()J", (void *) scanned},
        {"classesRewritten", "()J", (void *) rewritten},
    };
    if ((*jni)->RegisterNatives(jni, calls, natives, (jint) (sizeof natives / sizeof natives[0])) == JNI_OK) {
        return NULL;
    }
    (*jni)->ExceptionClear(jni);
    return (*jni)->NewStringUTF(jni, "RegisterNatives found no matching native methods");
}
