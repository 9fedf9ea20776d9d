/*
 * Test driver that loads a build of libclockagent.so as a JVM would, so that a JUnit test can load it under another C
 * library than the build host's (musl): dlopen()s it, finds Agent_OnLoad (and Agent_OnAttach, should the library
 * have one) and calls each with a JavaVM whose GetEnv answers JNI_EVERSION, as a JVM that offers no JVMTI would. Every
 * other function of that JavaVM is missing, so the library must stop at that answer. Usage: load_library LIBRARY.
 * Prints "loaded", then "ENTRY RESULT" for each entry it calls; exits 0 once all returned, 1 with the reason on stderr
 * if the library did not load or lacks Agent_OnLoad.
 */
#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <string.h>

typedef jint (JNICALL *agent_entry)(JavaVM *vm, char *options, void *reserved);

static jint JNICALL no_environment(JavaVM *vm, void **environment, jint version) {
    (void) vm;
    (void) version;
    *environment = NULL;
    return JNI_EVERSION;
}

/* dlsym's object pointer as a function pointer, through memcpy, which ISO C allows. */
static agent_entry entry(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    agent_entry function = NULL;
    memcpy(&function, &symbol, sizeof(function));
    return function;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: load_library LIBRARY\n");
        return 1;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    printf("loaded\n");
    struct JNIInvokeInterface_ functions;
    memset(&functions, 0, sizeof(functions));
    functions.GetEnv = no_environment;
    JavaVM vm = &functions;
    static const char *const names[] = {"Agent_OnLoad", "Agent_OnAttach"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        agent_entry function = entry(library, names[i]);
        if (function == NULL) {
            if (i == 0) {
                fprintf(stderr, "no Agent_OnLoad in %s\n", argv[1]);
                return 1;
            }
            continue;
        }
        char options[] = "";
        /* stdout is a pipe, so it is buffered: out before the library writes to stderr, for the order's sake. */
        fflush(stdout);
        jint result = function(&vm, options, NULL);
        printf("%s %d\n", names[i], (int) result);
    }
    fflush(stdout);
    return 0;
}
