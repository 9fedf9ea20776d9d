/*
 * Retransforming the classes in scope already loaded, both ways: as the hook goes on after they loaded (at VMInit,
 * attached), which rewrites them, and at a detach, with the hook off for good, which restores the bytes they were
 * loaded from, as the -javaagent entry's detach does (LoadedClasses). The JVM keeps those bytes, since this
 * environment can retransform.
 *
 * May include: agent_copy.h, class_restore.h, class_scope.h, open_definitions.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent_copy.h"
#include "class_restore.h"
#include "class_scope.h"
#include "java_contract.h"
#include "open_definitions.h"

/* Set on a thread while it retransforms for this copy. */
static __thread int retransforming;

/* Retransforms these classes as this copy's own retransformation, then settles what the hook held back of it. */
static jvmtiError retransform_as_this_copy(jvmtiEnv *jvmti, JNIEnv *jni, retransform_settle settle, jint count,
                                           jclass *classes) {
    retransforming = 1;
    jvmtiError error = (*jvmti)->RetransformClasses(jvmti, count, classes);
    retransforming = 0;
    if (settle != NULL) {
        settle(jni, error == JVMTI_ERROR_NONE);
    }
    return error;
}

int retransforming_for_this_copy(void) {
    return retransforming;
}

/* Whether a loaded class is one the hook rewrites: in scope, from an application loader, modifiable. */
static int may_be_rewritten(jvmtiEnv *jvmti, JNIEnv *jni, jclass loaded) {
    jobject loader = NULL;
    char *signature = NULL;
    jboolean modifiable = JNI_FALSE;
    int candidate = (*jvmti)->GetClassLoader(jvmti, loaded, &loader) == JVMTI_ERROR_NONE && loader != NULL
            && (*jvmti)->IsModifiableClass(jvmti, loaded, &modifiable) == JVMTI_ERROR_NONE && modifiable
            && (*jvmti)->GetClassSignature(jvmti, loaded, &signature, NULL) == JVMTI_ERROR_NONE
            && signature[0] == 'L';
    if (candidate) {
        /* "Lcom/acme/Name;" to "com/acme/Name"; a hidden class's name holds a '.', and no class file. */
        signature[strlen(signature) - 1] = '\0';
        candidate = strchr(signature, '.') == NULL && in_scope(signature + 1)
                && !is_platform_loader(jvmti, jni, loader);
    }
    if (signature != NULL) {
        (*jvmti)->Deallocate(jvmti, (unsigned char *) signature);
    }
    if (loader != NULL) {
        (*jni)->DeleteLocalRef(jni, loader);
    }
    return candidate;
}

/* The line of a class left as it was, as LoadedClasses writes it: its binary name, and why; none under quiet=true. */
static void say_not_retransformed(jvmtiEnv *jvmti, jclass loaded, jvmtiError error) {
    if (this_copy.options.quiet) {
        return;
    }
    char *signature = NULL;
    char *error_name = NULL;
    const char *name = "a class";
    if ((*jvmti)->GetClassSignature(jvmti, loaded, &signature, NULL) == JVMTI_ERROR_NONE && signature[0] == 'L') {
        /* "Lcom/acme/Name;" to "com.acme.Name". */
        signature[strlen(signature) - 1] = '\0';
        for (char *at = signature; *at != '\0'; at++) {
            *at = *at == '/' ? '.' : *at;
        }
        name = signature + 1;
    }
    (*jvmti)->GetErrorName(jvmti, error, &error_name);
    fprintf(stderr, "clock-agent: left %s as it was: could not retransform it: %s\n", name,
            error_name != NULL ? error_name : "unknown JVMTI error");
    (*jvmti)->Deallocate(jvmti, (unsigned char *) signature);
    (*jvmti)->Deallocate(jvmti, (unsigned char *) error_name);
}

/* Retransforms a batch, or where it fails each of its classes alone; how many were retransformed. */
static jint retransform_batch(jvmtiEnv *jvmti, JNIEnv *jni, retransform_settle settle, jclass *batch, jint size) {
    if (retransform_as_this_copy(jvmti, jni, settle, size, batch) == JVMTI_ERROR_NONE) {
        return size;
    }
    jint retransformed = 0;
    for (jint i = 0; i < size; i++) {
        jvmtiError error = retransform_as_this_copy(jvmti, jni, settle, 1, batch + i);
        if (error == JVMTI_ERROR_NONE) {
            retransformed++;
        } else {
            say_not_retransformed(jvmti, batch[i], error);
        }
    }
    return retransformed;
}

/* Local references the filter takes of its own beside the loaded classes': a loader at a time. */
#define LOCAL_REFS_BESIDE_CLASSES 16

jint retransform_in_scope(JNIEnv *jni, retransform_settle settle) {
    jvmtiEnv *jvmti = this_copy.jvmti;
    /*
     * GetLoadedClasses makes a local reference of every loaded class, thousands, in the caller's frame: they go into
     * a frame of their own, declared at their number before any other JNI call. The classes in scope are kept as
     * global references and the frame popped before they are retransformed: a JVM (JDK 17) counts the references of
     * every frame of the thread against the few that the hook's own frame plans for.
     */
    if ((*jni)->PushLocalFrame(jni, LOCAL_REFS_BESIDE_CLASSES) != JNI_OK) {
        (*jni)->ExceptionClear(jni);
        return 0;
    }
    jint count = 0;
    jclass *classes = NULL;
    if ((*jvmti)->GetLoadedClasses(jvmti, &count, &classes) != JVMTI_ERROR_NONE
            || (*jni)->EnsureLocalCapacity(jni, count + LOCAL_REFS_BESIDE_CLASSES) != JNI_OK) {
        (*jni)->ExceptionClear(jni);
        (*jvmti)->Deallocate(jvmti, (unsigned char *) classes);
        (*jni)->PopLocalFrame(jni, NULL);
        return 0;
    }
    jint covered = 0;
    for (jint i = 0; i < count; i++) {
        jclass kept = may_be_rewritten(jvmti, jni, classes[i]) ? (*jni)->NewGlobalRef(jni, classes[i]) : NULL;
        if (kept != NULL) {
            classes[covered++] = kept;
        }
    }
    (*jni)->PopLocalFrame(jni, NULL);
    jint retransformed = 0;
    for (jint start = 0; start < covered; start += JAVA_RETRANSFORM_BATCH_SIZE) {
        jint left = covered - start;
        retransformed += retransform_batch(jvmti, jni, settle, classes + start,
                                           left < JAVA_RETRANSFORM_BATCH_SIZE ? left : JAVA_RETRANSFORM_BATCH_SIZE);
    }
    for (jint i = 0; i < covered; i++) {
        (*jni)->DeleteGlobalRef(jni, classes[i]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *) classes);
    return retransformed;
}

/* How long the detach sleeps while hooks that read the state before it changed still run. */
#define HOOK_POLL_NANOS 100000L

static long long monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

/*
 * GetLoadedClasses holds no class still being defined, so the classes are taken once no hook that read the copy as
 * hooked still runs and every definition a hook handed rewritten bytes to has completed: else such a class would be
 * defined after the restore, rewritten, and not counted.
 */
jint JNICALL restore_classes(JNIEnv *jni, jclass calls) {
    (void) calls;
    copy_becomes(COPY_DETACHED);
    (*this_copy.jvmti)->SetEventNotificationMode(this_copy.jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK,
                                                 NULL);
    /* At most that long: a transformer of another agent that never returns must not hold the detach forever. */
    long long deadline_nanos = monotonic_nanos() + JAVA_DETACH_WAIT_MOST_SECONDS * 1000000000LL;
    while (__atomic_load_n(&this_copy.hooks_running, __ATOMIC_SEQ_CST) != 0 && monotonic_nanos() < deadline_nanos) {
        struct timespec poll = {0, HOOK_POLL_NANOS};
        nanosleep(&poll, NULL);
    }
    int hooks = (int) __atomic_load_n(&this_copy.hooks_running, __ATOMIC_SEQ_CST);
    int definitions = await_open_definitions(this_copy.jvmti, jni, deadline_nanos);
    if (hooks + definitions > 0) {
        fprintf(stderr, "clock-agent: " JAVA_DEFINITIONS_UNDER_WAY_FORMAT "\n", hooks + definitions,
                JAVA_DETACH_WAIT_MOST_SECONDS);
    }
    return retransform_in_scope(jni, NULL);
}
