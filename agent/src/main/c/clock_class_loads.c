/*
 * The line that a clock method's class loads after all, as ClockClassLoads.java says it: the redirect keeps the class
 * from loading only where every use of it is rewritten, and a use outside the included packages, another member of
 * the class or reflection loads it, and with it, once initialized, the thread that refreshes its value. The class it
 * loaded for is the first frame of the loading thread that is neither the JDK's nor a class loader's. It keeps, for
 * the Java side's report and MBean (ClockClasses.java), which methods' uses the hook redirected and which classes
 * loaded, for which class.
 *
 * May include: agent_copy.h, call_site_rewriter.h, clock_class_loads.h, jni_helpers.h.
 */
#define _GNU_SOURCE
#include "clock_class_loads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_copy.h"
#include "call_site_rewriter.h"
#include "class_file_format.h"
#include "jni_helpers.h"

/* Deep enough to pass the class loaders' frames, which a nested-jar launcher stacks up to a dozen of. */
#define FRAMES_LOOKED_AT 48
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const clock_method LIBRARY[] = LIBRARY_CLOCKS;
static const char *const LIBRARY_DESCRIPTIONS[] = LIBRARY_CLOCK_DESCRIPTIONS;
/* The clock methods watched, the first of those in force: as many as the withdrawn and redirected sets have bits. */
#define MOST_WATCHED 64
static const char *const JDK_PACKAGES[] = {"Ljava/", "Ljdk/", "Lsun/"};

/*
 * By index in the options' clocks, the class each method's class loaded for: set once, by the hook that says so (a
 * compare-and-swap from NULL, which also keeps the line to one), read by the Java side.
 */
static char *loaded_for_names[MOST_WATCHED];
/* Bit i set once the hook redirected uses of the i-th clock method. */
static jlong redirected;

static int from_jdk(const char *signature) {
    for (size_t i = 0; i < COUNT(JDK_PACKAGES); i++) {
        if (strncmp(signature, JDK_PACKAGES[i], strlen(JDK_PACKAGES[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The binary name of the class the load is for, into `name`; "an unknown class" where no frame is one. */
static void loaded_for(jvmtiEnv *jvmti, JNIEnv *jni, char *name, size_t size) {
    snprintf(name, size, "an unknown class");
    jvmtiFrameInfo frames[FRAMES_LOOKED_AT];
    jint count = 0;
    jclass class_loader = (*jni)->FindClass(jni, "java/lang/ClassLoader");
    if (class_loader == NULL) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    int found = 0;
    if ((*jvmti)->GetStackTrace(jvmti, NULL, 0, FRAMES_LOOKED_AT, frames, &count) == JVMTI_ERROR_NONE) {
        for (jint i = 0; i < count && !found; i++) {
            jclass declaring;
            char *signature = NULL;
            if ((*jvmti)->GetMethodDeclaringClass(jvmti, frames[i].method, &declaring) != JVMTI_ERROR_NONE) {
                continue;
            }
            if ((*jvmti)->GetClassSignature(jvmti, declaring, &signature, NULL) == JVMTI_ERROR_NONE) {
                size_t length = strlen(signature);
                found = length > 2 && signature[0] == 'L' && !from_jdk(signature)
                        && !(*jni)->IsAssignableFrom(jni, declaring, class_loader);
                if (found) {
                    snprintf(name, size, "%.*s", (int) (length - 2), signature + 1);
                    for (char *at = name; *at != '\0'; at++) {
                        *at = *at == '/' ? '.' : *at;
                    }
                }
                (*jvmti)->Deallocate(jvmti, (unsigned char *) signature);
            }
            (*jni)->DeleteLocalRef(jni, declaring);
        }
    }
    (*jni)->DeleteLocalRef(jni, class_loader);
}

/* What a library clock is, as the line puts it; "" for the service's own. */
static const char *description(const char *owner) {
    for (size_t i = 0; i < COUNT(LIBRARY); i++) {
        if (strcmp(LIBRARY[i].owner, owner) == 0) {
            return LIBRARY_DESCRIPTIONS[i];
        }
    }
    return "";
}

static void to_binary_name(char *name) {
    for (char *at = name; *at != '\0'; at++) {
        *at = *at == '/' ? '.' : *at;
    }
}

void say_if_clock_class(jvmtiEnv *jvmti, JNIEnv *jni, const char *internal_name, const unsigned char *bytes,
                        jint length) {
    const clock_methods *clocks = &this_copy.options.clocks;
    char caller[512];
    int caller_known = 0;
    int first = 0;
    int withdrawn = 0;
    char binary_name[512];
    snprintf(binary_name, sizeof binary_name, "%s", internal_name);
    to_binary_name(binary_name);
    for (size_t i = 0; i < clocks->count && i < MOST_WATCHED; i++) {
        const clock_method *method = &clocks->methods[i];
        if (strcmp(method->owner, internal_name) != 0
                || __atomic_load_n(&loaded_for_names[i], __ATOMIC_ACQUIRE) != NULL) {
            continue;
        }
        if (!caller_known) {
            loaded_for(jvmti, jni, caller, sizeof caller);
            caller_known = 1;
        }
        /* Where memory runs short the line is said, and the class goes unrecorded. */
        char *kept = strdup(caller);
        char *none = NULL;
        if (kept != NULL && !__atomic_compare_exchange_n(&loaded_for_names[i], &none, kept, 0, __ATOMIC_ACQ_REL,
                                                         __ATOMIC_ACQUIRE)) {
            /* Another loader's load of the class said so first. */
            free(kept);
            continue;
        }
        first = 1;
        if (!method->known_static && clocks->withdrawn != NULL
                && !declares_static_clock_method(bytes, length, method->name)) {
            __atomic_or_fetch(clocks->withdrawn, 1ull << i, __ATOMIC_RELAXED);
            withdrawn = 1;
            char entry[1024];
            snprintf(entry, sizeof entry, "%s.%s", binary_name, method->name);
            char line[2048];
            snprintf(line, sizeof line, CLOCK_METHOD_WITHDRAWN_FORMAT, binary_name, method->name, entry);
            if (!this_copy.options.quiet) {
                say(line);
            }
        }
    }
    if (first && !withdrawn && !this_copy.options.quiet) {
        char line[1536];
        snprintf(line, sizeof line, CLOCK_CLASS_LOADED_FORMAT, binary_name, description(internal_name), caller);
        say(line);
    }
}

void note_redirected(const unsigned char *bytes, jint length) {
    const clock_methods *clocks = &this_copy.options.clocks;
    jlong named = 0;
    for (size_t i = 0; i < clocks->count && i < MOST_WATCHED; i++) {
        const char *owner = clocks->methods[i].owner;
        if (memmem(bytes, (size_t) length, owner, strlen(owner)) != NULL) {
            named |= (jlong) 1 << i;
        }
    }
    if ((__atomic_load_n(&redirected, __ATOMIC_RELAXED) & named) != named) {
        __atomic_or_fetch(&redirected, named, __ATOMIC_RELAXED);
    }
}

jlong JNICALL clock_methods_redirected(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&redirected, __ATOMIC_RELAXED);
}

jobjectArray JNICALL clock_classes_loaded_for(JNIEnv *jni, jclass calls) {
    (void) calls;
    size_t count = this_copy.options.clocks.count < COUNT(loaded_for_names) ? this_copy.options.clocks.count
            : COUNT(loaded_for_names);
    jclass string_class = (*jni)->FindClass(jni, "java/lang/String");
    jobjectArray names = string_class == NULL ? NULL : (*jni)->NewObjectArray(jni, (jsize) count, string_class, NULL);
    for (size_t i = 0; names != NULL && i < count; i++) {
        const char *name = __atomic_load_n(&loaded_for_names[i], __ATOMIC_ACQUIRE);
        jstring text = name == NULL ? NULL : java_string(jni, name);
        if (name != NULL && text == NULL) {
            return NULL;
        }
        (*jni)->SetObjectArrayElement(jni, names, (jsize) i, text);
        (*jni)->DeleteLocalRef(jni, text);
    }
    return names;
}
