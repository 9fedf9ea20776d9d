/*
 * A native agent that sees every class file and changes none: loaded with -agentpath, it asks for what the agent's
 * native class filter asks for (retransformation) and turns the class-file hook on where clock-agent's -agentpath
 * entry does, at VMInit: with a hook on, the JVM reads again every class it takes from the class-data archive, to
 * show it, so when the hook goes on decides what it costs. StackComparison runs it beside the do-nothing Java agent
 * to show what an agent costs a start when it does not come through -javaagent, which makes the JVM add
 * java.instrument to the module graph and so give up the archived one.
 */
#include <jvmti.h>
#include <stdio.h>
#include <string.h>

static void JNICALL unchanged(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
        jobject protectionDomain, jint length, const unsigned char *bytes, jint *newLength,
        unsigned char **newBytes) {
    /* Leaving *newBytes untouched keeps the class file as it is. */
}

static void JNICALL hook_on(jvmtiEnv *jvmti, JNIEnv *jni, jthread mainThread) {
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL)
            != JVMTI_ERROR_NONE) {
        fprintf(stderr, "noop_jvmti_agent: could not turn the class-file hook on\n");
    }
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        fprintf(stderr, "noop_jvmti_agent: no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }
    jvmtiCapabilities capabilities;
    memset(&capabilities, 0, sizeof capabilities);
    capabilities.can_retransform_classes = 1;
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof callbacks);
    callbacks.ClassFileLoadHook = unchanged;
    callbacks.VMInit = hook_on;
    if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE
            || (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks) != JVMTI_ERROR_NONE
            || (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL)
                    != JVMTI_ERROR_NONE) {
        fprintf(stderr, "noop_jvmti_agent: could not ask for VMInit\n");
        return JNI_ERR;
    }
    return JNI_OK;
}
