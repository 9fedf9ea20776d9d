/*
 * The class-load hook: the one JVMTI ClassFileLoadHook of the library, whichever way the agent started. It turns away
 * the boot, platform and agent loaders' classes, classes out of scope and classes whose bytes lack the clock method's
 * name, and rewrites the rest with the C rewriter (call_site_rewriter.c), which leaves what it cannot read with
 * certainty as it was. It defines the cached clock in java.lang as the first rewritten class needs it, counts what it
 * does, shows the Java side each class it rewrote where sites are counted, and tells the Java side of the two loads it
 * waits for: the JDK's MBean server class (JMX is starting) and another copy's detach signal. And it says when the
 * class of a clock method it redirects loads after all (clock_class_loads.c).
 *
 * It never decides otherwise than the Java transformer would: it only says "not this one" for classes Java would leave
 * alone too, and rewrites byte for byte as Java would (NativeRewriterParityTest).
 *
 * May include: agent_copy.h, call_site_rewriter.h, class_load_hook.h, class_restore.h, class_scan.h, class_scope.h,
 * clock_class_loads.h, held_classes.h, java_side.h, jni_helpers.h, open_definitions.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "agent_copy.h"
#include "cached_clock_class.h"
#include "call_site_rewriter.h"
#include "class_load_hook.h"
#include "class_restore.h"
#include "class_scan.h"
#include "class_scope.h"
#include "clock_class_loads.h"
#include "held_classes.h"
#include "java_contract.h"
#include "java_side.h"
#include "jni_helpers.h"
#include "open_definitions.h"

typedef enum { CLOCK_NOT_DEFINED, CLOCK_DEFINED, CLOCK_FAILED } clock_state;

/*
 * The clock as a JDK with java.time.InstantSource defines it, and as an older one does: there its methods in place of
 * InstantSource.system() return a Clock, as reflection over the clock resolves every type its methods return.
 */
static const unsigned char CLOCK_CLASS_BYTES[] = CACHED_CLOCK_CLASS_BYTES;
static const unsigned char CLOCK_CLASS_BYTES_BEFORE_INSTANT_SOURCE[] = CACHED_CLOCK_CLASS_BYTES_BEFORE_INSTANT_SOURCE;

/*
 * The clock's definition, by the first hook that needs it. The lock order, outermost first: what the JVM holds for the
 * class a hook runs for (its loader's lock where the loader is not parallel-capable, the class's placeholder);
 * clock_lock; what the JVM takes to define the clock in the boot loader, and what other agents take in the hooks and
 * transformers that DefineClass shows the clock's class to, on the defining thread; java_side_lock (java_side.c), the
 * innermost, under which nothing else is taken. clock_lock covers DefineClass alone, with the FindClass and the
 * exception's toString of a failed one: the calls into the Java side come after it is released. A hook entered again
 * on the defining thread, for a class another agent loads there, must not wait for clock_lock, which that thread
 * holds: defining_clock has that class load unchanged. A hook on another thread waits for clock_lock holding its own
 * class's locks, so another agent that, shown the clock's class, waits for the class that thread loads would
 * deadlock the two; none is known to.
 */
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static clock_state clock_status = CLOCK_NOT_DEFINED;
static jclass clock_class;
/* Set on the thread that defines the clock, while it does. */
static __thread int defining_clock;

static int unreadable_reported;

static jclass defined_clock(void) {
    return __atomic_load_n(&clock_status, __ATOMIC_SEQ_CST) == CLOCK_DEFINED ? clock_class : NULL;
}

/* Whether this JVM's java.time has InstantSource: the JVMTI version's major number is the JVM's feature release. */
static int has_instant_source(jvmtiEnv *jvmti) {
    jint version;
    return (*jvmti)->GetVersionNumber(jvmti, &version) == JVMTI_ERROR_NONE
            && (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR >= INSTANT_SOURCE_FEATURE;
}

/*
 * Defines the clock in java.lang on the first call, or finds the one a -javaagent copy defined (the definition then
 * fails as a duplicate), and tells the Java side. Whether rewritten classes may now read it.
 */
static int clock_ready(jvmtiEnv *jvmti, JNIEnv *jni) {
    if (__atomic_load_n(&clock_status, __ATOMIC_SEQ_CST) != CLOCK_NOT_DEFINED || defining_clock) {
        return defined_clock() != NULL;
    }
    pthread_mutex_lock(&clock_lock);
    int first = clock_status == CLOCK_NOT_DEFINED;
    if (first) {
        defining_clock = 1;
        const unsigned char *clock_bytes = CLOCK_CLASS_BYTES_BEFORE_INSTANT_SOURCE;
        jsize clock_length = (jsize) sizeof(CLOCK_CLASS_BYTES_BEFORE_INSTANT_SOURCE);
        if (has_instant_source(jvmti)) {
            clock_bytes = CLOCK_CLASS_BYTES;
            clock_length = (jsize) sizeof(CLOCK_CLASS_BYTES);
        }
        jclass defined = (*jni)->DefineClass(jni, CACHED_CLOCK_INTERNAL_NAME, NULL, (const jbyte *) clock_bytes,
                                             clock_length);
        char why[EXCEPTION_LINE_SIZE] = "out of memory";
        if (defined == NULL) {
            take_exception(jni, "out of memory", why);
            defined = (*jni)->FindClass(jni, CACHED_CLOCK_INTERNAL_NAME);
            (*jni)->ExceptionClear(jni);
        }
        if (defined != NULL) {
            clock_class = (*jni)->NewGlobalRef(jni, defined);
        }
        if (clock_class == NULL) {
            fprintf(stderr, "clock-agent: off, classes load unchanged: could not define the cached clock: %s\n", why);
        }
        __atomic_store_n(&clock_status, clock_class != NULL ? CLOCK_DEFINED : CLOCK_FAILED, __ATOMIC_SEQ_CST);
        defining_clock = 0;
    }
    pthread_mutex_unlock(&clock_lock);
    int ready = defined_clock() != NULL;
    if (first && ready) {
        java_side_clock_defined(jni, clock_class);
    }
    return ready;
}

/*
 * A class_allocator (call_site_rewriter.h) over the hook's JVMTI environment: the memory a hook hands back as the new
 * class file must come from it, as the JVM frees it there. NULL if memory is short.
 */
static unsigned char *jvmti_allocate(void *jvmti_env, size_t size) {
    jvmtiEnv *jvmti = jvmti_env;
    unsigned char *memory;
    return (*jvmti)->Allocate(jvmti, (jlong) size, &memory) == JVMTI_ERROR_NONE ? memory : NULL;
}

/* Hands back no new bytes: the class loads as it was. */
static void leave_unchanged(jvmtiEnv *jvmti, jint *new_length, unsigned char **new_bytes) {
    (*jvmti)->Deallocate(jvmti, *new_bytes);
    *new_bytes = NULL;
    *new_length = 0;
}

/*
 * How the hook counts a class it sees: not at all (another agent's retransformation of a class counted at its load),
 * at once (a load), or held back until the JVM has answered this copy's own retransformation of it.
 */
typedef enum { NOT_COUNTED, COUNTED, COUNTED_IF_RETRANSFORMED } counting;

/*
 * What this thread's retransformation for this copy counted and showed, until hook_settle_retransformation. A class
 * that cannot be held for want of memory is counted without its verbose line, as the Java side drops one then too.
 */
static __thread long held_scanned;
static __thread held_classes held_back;

/* A rewritten class counted, the methods it redirects noted, and, where sites are counted, shown to the Java side. */
static void count_rewritten(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes) {
    __atomic_add_fetch(&this_copy.classes_rewritten, 1, __ATOMIC_RELAXED);
    note_redirected(bytes, length);
    if (this_copy.counts_sites) {
        java_side_show(jni, name, length, bytes, 1);
    }
}

void hook_settle_retransformation(JNIEnv *jni, int retransformed) {
    held_class *held = take_held(&held_back);
    if (retransformed) {
        __atomic_add_fetch(&this_copy.classes_scanned, held_scanned, __ATOMIC_RELAXED);
    }
    held_scanned = 0;
    for (held_class *each = retransformed ? held : NULL; each != NULL; each = each->next) {
        if (each->rewritten) {
            count_rewritten(jni, each->name, each->length, each->bytes);
        } else {
            java_side_show(jni, each->name, each->length, each->bytes, 0);
        }
    }
    free_held(held);
}

/* A class of an application loader, in scope, that names the clock: rewritten, counted and shown. */
static void rewrite_in_scope(jvmtiEnv *jvmti, JNIEnv *jni, const char *name, counting count, jint length,
                             const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    int dry_run = this_copy.options.dry_run;
    int cached_instants = in_packages(&this_copy.options.cached_instants, name);
    rewrite_outcome outcome = rewrite_call_sites(bytes, length, CACHED_CLOCK_INTERNAL_NAME, cached_instants,
                                                 &this_copy.options.clocks, jvmti_allocate, jvmti, new_length,
                                                 new_bytes);
    if (outcome == REWRITE_DONE && (dry_run || !clock_ready(jvmti, jni))) {
        /* A dry run finds, counts and shows; where the clock could not be defined nothing is done at all. */
        leave_unchanged(jvmti, new_length, new_bytes);
        if (!dry_run) {
            return;
        }
    }
    if (outcome == REWRITE_DONE && *new_bytes != NULL) {
        definition_opened(jvmti, jni);
    }
    if (outcome == REWRITE_DONE && count == COUNTED) {
        count_rewritten(jni, name, length, bytes);
    } else if (outcome == REWRITE_DONE && count == COUNTED_IF_RETRANSFORMED) {
        hold_class(&held_back, name, length, bytes, 1);
    }
    if (outcome == REWRITE_NOT_NEEDED && count != NOT_COUNTED && this_copy.counts_sites && !cached_instants
            && keeps_instant_reads(bytes, length, CACHED_CLOCK_INTERNAL_NAME, &this_copy.options.clocks)) {
        if (count == COUNTED) {
            java_side_show(jni, name, length, bytes, 0);
        } else {
            hold_class(&held_back, name, length, bytes, 0);
        }
    }
    if (outcome == REWRITE_LEFT_TO_JAVA && !this_copy.options.quiet
            && !__atomic_exchange_n(&unreadable_reported, 1, __ATOMIC_RELAXED)) {
        fprintf(stderr, "clock-agent: left %s unchanged, and any other class file of a form the rewriter cannot"
                " read with certainty (an unknown kind of constant, a malformed or full constant pool)\n", name);
    }
}

static void hook_class(jvmtiEnv *jvmti, JNIEnv *jni, jclass being_redefined, jobject loader, const char *name,
                       jint length, const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    if (copy_now() != COPY_HOOKED || name == NULL) {
        return;
    }
    if (loader == NULL) {
        if (this_copy.options.jmx && strcmp(name, JAVA_MBEAN_SERVER_INTERNAL_NAME) == 0) {
            java_side_news(jni, NEWS_JMX_STARTING);
        }
        return;
    }
    if (strcmp(name, JAVA_DETACH_SIGNAL_INTERNAL_NAME) == 0
            && loader_is(jvmti, jni, loader, JAVA_DETACHING_LOADER_SIGNATURE)) {
        java_side_news(jni, NEWS_DETACH_REQUESTED);
        return;
    }
    if (being_redefined == NULL) {
        say_if_clock_class(jvmti, jni, name, bytes, length);
    }
    if (!in_scope(name)) {
        return;
    }
    /*
     * A class another agent retransforms comes here again, from the bytes it was loaded from: it is rewritten again,
     * as this environment's rewrite would otherwise be lost, but counted and shown once, as it was at its load. A
     * class loaded on this thread while it retransforms (by another agent's transformer) is a load like any other.
     */
    counting count = being_redefined == NULL ? COUNTED
            : retransforming_for_this_copy() ? COUNTED_IF_RETRANSFORMED : NOT_COUNTED;
    if (count == COUNTED) {
        __atomic_add_fetch(&this_copy.classes_scanned, 1, __ATOMIC_RELAXED);
    } else if (count == COUNTED_IF_RETRANSFORMED) {
        held_scanned++;
    }
    if (names_clock_method(bytes, length, &this_copy.options.clocks) && !is_platform_loader(jvmti, jni, loader)) {
        rewrite_in_scope(jvmti, jni, name, count, length, bytes, new_length, new_bytes);
    }
}

static void JNICALL on_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass being_redefined, jobject loader,
                                       const char *name, jobject protection_domain, jint length,
                                       const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    (void) protection_domain;
    __atomic_add_fetch(&this_copy.hooks_running, 1, __ATOMIC_SEQ_CST);
    hook_class(jvmti, jni, being_redefined, loader, name, length, bytes, new_length, new_bytes);
    __atomic_sub_fetch(&this_copy.hooks_running, 1, __ATOMIC_SEQ_CST);
}

int hook_install(jvmtiEnv *jvmti, int at_load, jvmtiEventVMInit on_vm_init) {
    jvmtiCapabilities capabilities;
    memset(&capabilities, 0, sizeof(capabilities));
    capabilities.can_generate_all_class_hook_events = 1;
    /* So that the JVM keeps the bytes each rewritten class was loaded from, which a detach restores. */
    capabilities.can_retransform_classes = 1;
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof(callbacks));
    callbacks.ClassFileLoadHook = on_class_file_load;
    callbacks.VMInit = on_vm_init;
    if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE
            || (*jvmti)->SetEventCallbacks(jvmti, &callbacks, (jint) sizeof(callbacks)) != JVMTI_ERROR_NONE) {
        return 0;
    }
    copy_becomes(COPY_HOOKED);
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                           at_load ? JVMTI_EVENT_VM_INIT : JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL)
            != JVMTI_ERROR_NONE) {
        copy_becomes(COPY_IDLE);
        return 0;
    }
    return 1;
}
