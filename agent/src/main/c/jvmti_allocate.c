#include "jvmti_allocate.h"

#include <jvmti.h>

unsigned char *jvmti_allocate(void *jvmti_env, size_t size) {
    jvmtiEnv *env = jvmti_env;
    unsigned char *memory;
    return (*env)->Allocate(env, (jlong) size, &memory) == JVMTI_ERROR_NONE ? memory : NULL;
}
