/*
 * The scope: which classes the agent rewrites, as the Java side's RewriteScope has it. Excludes win, no include means
 * everything, and never the JDK's or the agent's own packages, nor the platform loader's classes.
 *
 * May include: agent_copy.h, class_scope.h, jni_helpers.h.
 */
#include <string.h>

#include "agent_copy.h"
#include "class_scope.h"
#include "jni_helpers.h"
#include "option_grammar.h"

#define PLATFORM_LOADER_SIGNATURE "Ljdk/internal/loader/ClassLoaders$PlatformClassLoader;"

static const char *const IGNORED[] = IGNORED_PREFIXES_AND_REASONS;

int in_packages(const package_prefixes *packages, const char *name) {
    for (size_t i = 0; i < packages->count; i++) {
        if (strncmp(name, packages->prefixes[i], strlen(packages->prefixes[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

static int ignored(const char *name) {
    for (size_t i = 0; i < sizeof(IGNORED) / sizeof(IGNORED[0]); i += 2) {
        if (strncmp(name, IGNORED[i], strlen(IGNORED[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

int in_scope(const char *name) {
    const agent_options *options = &this_copy.options;
    return !in_packages(&options->excludes, name)
            && (options->includes.count == 0 || in_packages(&options->includes, name)) && !ignored(name);
}

/* Asked only of the few classes that could need it: those in scope that name the clock. */
int is_platform_loader(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader) {
    return loader_is(jvmti, jni, loader, PLATFORM_LOADER_SIGNATURE);
}
