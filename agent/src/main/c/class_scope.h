#ifndef CLOCK_AGENT_CLASS_SCOPE_H
#define CLOCK_AGENT_CLASS_SCOPE_H

#include <jni.h>
#include <jvmti.h>

#include "agent_options.h"

/* Whether a class, by its internal name, is in one of these packages. */
int in_packages(const package_prefixes *packages, const char *internal_name);

/* Whether a class, by its internal name, is in the options' scope: RewriteScope's rule. */
int in_scope(const char *internal_name);

/* Whether the loader is the platform loader, which defines JDK classes outside the boot loader. */
int is_platform_loader(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader);

#endif
