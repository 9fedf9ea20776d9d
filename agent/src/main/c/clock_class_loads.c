/*
 * The line that a clock method's class loads after all, as ClockClassLoads.java says it: the redirect keeps the class
 * from loading only where every use of it is rewritten, and a use outside the included packages, another member of
 * the class or reflection loads it, and with it, once initialized, the thread that refreshes its value. The class it
 * loaded for is the first frame of the loading thread that is neither the JDK's nor a class loader's.
 *
 * May include: agent_copy.h, clock_class_loads.h, jni_helpers.h.
 */
#include "clock_class_loads.h"

#include <stdio.h>
#include <string.h>

#include "agent_copy.h"
#include "class_file_format.h"
#include "jni_helpers.h"

/* Deep enough to pass the class loaders' frames, which a nested-jar launcher stacks up to a dozen of. */
#define FRAMES_LOOKED_AT 48
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const char *const LIBRARY_DESCRIPTIONS[] = LIBRARY_CLOCK_DESCRIPTIONS;
static const char *const JDK_PACKAGES[] = {"Ljava/", "Ljdk/", "Lsun/"};

/* Whether each clock method's class was said to load, by its index in the options' clocks. */
static int said[COUNT(LIBRARY_DESCRIPTIONS)];

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

void say_if_clock_class(jvmtiEnv *jvmti, JNIEnv *jni, const char *internal_name) {
    const clock_methods *clocks = &this_copy.options.clocks;
    for (size_t i = 0; i < clocks->count && i < COUNT(said); i++) {
        if (strcmp(clocks->methods[i].owner, internal_name) != 0) {
            continue;
        }
        /* The library clocks lead the list, so that an index below their count is theirs. */
        if (__atomic_exchange_n(&said[i], 1, __ATOMIC_RELAXED)) {
            return;
        }
        char binary_name[512];
        snprintf(binary_name, sizeof binary_name, "%s", internal_name);
        for (char *at = binary_name; *at != '\0'; at++) {
            *at = *at == '/' ? '.' : *at;
        }
        char caller[512];
        loaded_for(jvmti, jni, caller, sizeof caller);
        char line[1536];
        snprintf(line, sizeof line, CLOCK_CLASS_LOADED_FORMAT, binary_name, LIBRARY_DESCRIPTIONS[i], caller);
        say(line);
        return;
    }
}
