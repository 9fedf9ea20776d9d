/*
 * The library's one start, for every way in: the -agentpath entry (java -agentpath:/path/libclockagent.so=OPTIONS,
 * with clock-agent.jar in the library's folder); the attach entry (jcmd PID JVMTI.agent_load /path/libclockagent.so
 * '"OPTIONS"', or jattach), into a running JVM, with the jar in the same place; and, through java_agent_start.c, the
 * -javaagent entry's premain and its agentmain (java -jar clock-agent.jar attach), wherever the jar carries this
 * library. Each reaches start_copy, as async-profiler's VM::init serves its entries: it reads the options, judges the
 * Java, claims this library's copy and puts the one hook (class_load_hook.c) in place; then, once Java can be called,
 * it takes the JVM: the banner, the claim on the JVM, the Java side's start (java_side.c), and the rewrite of the
 * classes in scope already loaded (class_restore.c). What differs between the ways (the phase, where the options'
 * property and the jar come from, what a failure does) it takes from the way the start came in (agent_copy.h).
 *
 * Why -agentpath beside -javaagent: -javaagent makes the JVM add java.instrument to the module graph, which gives up
 * class-data sharing's archived module graph, and a runtime linked without java.instrument stops before main. This
 * entry needs neither: before any Java runs it reads the options with the C grammar (agent_options.c, held to the Java
 * parser by NativeOptionsParityTest), and nothing of the agent's Java runs on the startup path.
 *
 * Failure policy, as the Java entry's: a bad option or an unsupported Java prints one line and the service runs
 * unchanged, or with strict=true the JVM exits with status 1 before main (never once it runs: attached, the JVM reports
 * the failure to the one who asked, as jcmd's return code); a fault after that leaves classes unchanged or the clock on
 * its direct path, never the service stopped. enabled=false from any source comes before all of it: one line naming
 * the source, and nothing else done, whatever else the options say. quiet=true leaves out every line but a fault's.
 *
 * May include: agent_copy.h, agent_entry.h, agent_options.h, class_load_hook.h, class_restore.h, java_side.h,
 * jni_helpers.h.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_copy.h"
#include "agent_entry.h"
#include "agent_options.h"
#include "banner.h"
#include "class_load_hook.h"
#include "class_restore.h"
#include "java_contract.h"
#include "java_side.h"
#include "jni_helpers.h"
#include "option_grammar.h"

#define AGENTPATH_ALREADY_ACTIVE "already active in this JVM; the -agentpath copy does nothing"
#define NATIVE_FILTER_OFF_IGNORED "nativeFilter=false has no effect through %s, whose filter is this native hook" \
        " alone; the Java transformer serves through -javaagent"
/*
 * jcmd reads JVMTI.agent_load's arguments as its own, name=value, and passes the library an option only up to its first
 * '=' unless the options are quoted; what reaches the library then holds no '=' at all.
 */
#define JCMD_QUOTING_HINT "; jcmd passes the options only up to their first '=' unless they are quoted, as in" \
        " jcmd PID JVMTI.agent_load LIBRARY '\"include=com.acme\"'"
#define DETACHED_BEFORE "not attached: this library was detached from this JVM before, and starts in a JVM once;" \
        " attach again with java -jar clock-agent.jar attach"

agent_copy this_copy;

/* Says why the agent does not start: where strict=true asks for it, that the JVM stops, which the caller does. */
static entry_start refuse(int strict, const char *stopping, const char *why) {
    if (strict) {
        fprintf(stderr, "clock-agent: %s, stopping the JVM (strict=true): %s\n", stopping, why);
        fflush(stderr);
        return ENTRY_STOP_JVM;
    }
    fprintf(stderr, "clock-agent: off, the service runs without it: %s\n", why);
    return ENTRY_REFUSED;
}

/*
 * Where the JVM will not have the hook: from Java, the Java start serves, as its transformer may still be granted what
 * the hook was not, with nothing said here; otherwise one line says why the agent is off.
 */
static entry_start cannot_hook(entry_way way, const char *why) {
    return from_java(way) ? ENTRY_FILTER_IN_JAVA : refuse(0, NULL, why);
}

/* How the operator names the entry in the lines that concern it alone. */
static const char *entry_name(entry_way way) {
    return way == WAY_ATTACH ? "JVMTI.agent_load" : "-agentpath";
}

static const char *already_active(entry_way way) {
    return way == WAY_AGENTPATH ? AGENTPATH_ALREADY_ACTIVE : JAVA_ALREADY_ACTIVE;
}

/*
 * A system property given on the command line, into `value` (NULL where it is not set), which the caller hands to
 * Deallocate; false where it cannot be read, which must not pass for not set: enabled=false may be in it.
 */
static int read_system_property(jvmtiEnv *jvmti, const char *key, char **value) {
    *value = NULL;
    jvmtiError error = (*jvmti)->GetSystemProperty(jvmti, key, value);
    if (error != JVMTI_ERROR_NONE) {
        *value = NULL;
    }
    return error == JVMTI_ERROR_NONE || error == JVMTI_ERROR_NOT_AVAILABLE;
}

/* The feature release in a specification version, "1.8" and "11" alike; -1 if it has none. */
static int feature_of(const char *specification_version) {
    if (specification_version == NULL) {
        return -1;
    }
    const char *feature = strncmp(specification_version, "1.", 2) == 0 ? specification_version + 2
            : specification_version;
    size_t digits = strspn(feature, "0123456789");
    return digits == 0 || digits > 4 || feature[digits] != '\0' ? -1 : atoi(feature);
}

/*
 * Whether this Java is older than the agent supports, with why in `why`. The release as the -javaagent entry judges
 * it, by java.specification.version, where the command line sets it at the JVM's load (JDK 11 honours that);
 * otherwise by the VM's own, which has the same number, as java.specification.version is set only as Java starts.
 */
static int unsupported_java(jvmtiEnv *jvmti, char *why, size_t why_size) {
    const char *judged_by = "java.specification.version";
    char *specification;
    read_system_property(jvmti, judged_by, &specification);
    if (specification == NULL) {
        judged_by = "java.vm.specification.version";
        read_system_property(jvmti, judged_by, &specification);
    }
    int feature = feature_of(specification);
    if (feature < 0) {
        snprintf(why, why_size, "cannot tell which Java this is (%s '%s'; %d or later is supported)", judged_by,
                 specification == NULL ? "null" : specification, JAVA_OLDEST_SUPPORTED_FEATURE);
    } else if (feature < JAVA_OLDEST_SUPPORTED_FEATURE) {
        snprintf(why, why_size, "Java %d is not supported (%d or later is)", feature, JAVA_OLDEST_SUPPORTED_FEATURE);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *) specification);
    return feature < JAVA_OLDEST_SUPPORTED_FEATURE;
}

/* clock-agent.jar in the folder of this library, or NULL if the library cannot tell where it is. */
static char *jar_beside_library(void) {
    Dl_info library;
    if (dladdr((void *) jar_beside_library, &library) == 0 || library.dli_fname == NULL) {
        return NULL;
    }
    const char *slash = strrchr(library.dli_fname, '/');
    size_t folder_length = slash == NULL ? 0 : (size_t) (slash - library.dli_fname) + 1;
    size_t size = folder_length + sizeof(JAVA_JAR_FILE_NAME) + 2;
    char *path = malloc(size);
    if (path != NULL) {
        snprintf(path, size, "%s%.*s%s", slash == NULL ? "./" : "", (int) folder_length, library.dli_fname,
                 JAVA_JAR_FILE_NAME);
    }
    return path;
}

/* The clocksource as HostClocksource.describe reads it, trimmed as String.trim does; NULL if memory runs short. */
static char *clocksource(void) {
    char name[256] = "";
    FILE *file = fopen(CURRENT_CLOCKSOURCE_FILE, "r");
    if (file != NULL) {
        size_t length = fread(name, 1, sizeof name - 1, file);
        name[length] = '\0';
        fclose(file);
    }
    char *start = name;
    while (*start != '\0' && (unsigned char) *start <= ' ') {
        start++;
    }
    size_t length = strlen(start);
    while (length > 0 && (unsigned char) start[length - 1] <= ' ') {
        start[--length] = '\0';
    }
    return strdup(length > 0 ? start : UNKNOWN_CLOCKSOURCE);
}

/* The banner, as AgentVersion.banner writes it from the same parts; NULL if memory runs short. */
static char *make_banner(const agent_options *options) {
    char *described = describe_agent_options(options);
    char *source = clocksource();
    char *made = NULL;
    if (described != NULL && source != NULL) {
        const char *doing = options->dry_run ? BANNER_DRY_RUN : BANNER_CACHING;
        size_t length = strlen(AGENT_VERSION) + strlen(doing) + strlen(described) + strlen(BANNER_CLOCKSOURCE)
                + strlen(source) + 1;
        made = malloc(length);
        if (made != NULL) {
            snprintf(made, length, "%s%s%s%s%s", AGENT_VERSION, doing, described, BANNER_CLOCKSOURCE, source);
        }
    }
    free(described);
    free(source);
    return made;
}

/*
 * Once Java can be called and the hook is on: prints the banner and claims the JVM with it, as ActiveCopy.claim does,
 * or stands down if another copy holds it; then the Java side may start, and, but from premain, where no class in scope
 * has loaded yet, the classes in scope already loaded are rewritten.
 */
static void take_the_jvm(jvmtiEnv *jvmti, JNIEnv *jni) {
    this_copy.banner = make_banner(&this_copy.options);
    char why[EXCEPTION_LINE_SIZE] = "out of memory";
    property_claim claim = this_copy.banner == NULL ? PROPERTY_UNCLAIMABLE
            : java_property_claim(jni, JAVA_ACTIVE_COPY_PROPERTY, this_copy.banner, why);
    if (claim != PROPERTY_CLAIMED) {
        copy_becomes(COPY_STANDING_DOWN);
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
        if (claim == PROPERTY_HELD) {
            if (!this_copy.options.quiet) {
                say(already_active(this_copy.way));
            }
        } else if (this_copy.banner == NULL) {
            say("off, the service runs without it: out of memory");
        } else {
            fprintf(stderr, "clock-agent: off, the service runs without it: could not claim the JVM: %s\n", why);
        }
        return;
    }
    /* quiet=true leaves out what the agent says unasked, as AgentLog.note does; never a fault's line. */
    if (!this_copy.options.quiet) {
        say(this_copy.banner);
        for (size_t i = 0; i < this_copy.options.warnings.count; i++) {
            say(this_copy.options.warnings.texts[i]);
        }
    }
    java_side_jvm_taken(jni);
    /*
     * Attached, the MBean registers at once, as the Java agent's attach has it: JMX may have come alive long before,
     * and the class whose loading says so will not load again.
     */
    if (attached(this_copy.way) && this_copy.options.jmx) {
        java_side_news(jni, NEWS_JMX_STARTING);
    }
    if (this_copy.way != WAY_PREMAIN) {
        retransform_in_scope(jni, hook_settle_retransformation);
    }
    if (this_copy.options.native_filter == 0 && !from_java(this_copy.way) && !this_copy.options.quiet) {
        fprintf(stderr, "clock-agent: " NATIVE_FILTER_OFF_IGNORED "\n", entry_name(this_copy.way));
    }
}

/*
 * The hook goes on here rather than as the JVM loads the library: with it on, the JVM reads again, to show it to the
 * hook, every class it takes from the class-data archive, and several hundred of those load before VMInit, none in
 * scope (benchmarks/README.md). What an application loader did load by now (a custom system class loader, the classes
 * of an agent given before this one) is retransformed, so rewritten all the same.
 */
static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread main_thread) {
    (void) main_thread;
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL)
            != JVMTI_ERROR_NONE) {
        copy_becomes(COPY_STANDING_DOWN);
        say("off, the service runs without it: the JVM refused the class-load hook");
        return;
    }
    take_the_jvm(jvmti, jni);
}

/* An attach's bad option, with the way to pass the options whole where jcmd is the likely cause; free it. */
static char *explained(char *error, entry_way way, const char *arguments) {
    if (error == NULL || way != WAY_ATTACH || arguments == NULL || strchr(arguments, '=') != NULL) {
        return error;
    }
    size_t length = strlen(error) + sizeof(JCMD_QUOTING_HINT);
    char *hinted = malloc(length);
    if (hinted == NULL) {
        return error;
    }
    snprintf(hinted, length, "%s%s", error, JCMD_QUOTING_HINT);
    free(error);
    return hinted;
}

/* Gives up what a start that did not hook adopted, so that nothing of it outlives the start. */
static void forget_copy(void) {
    free_agent_options(&this_copy.options);
    for (int source = 0; source < SOURCE_COUNT; source++) {
        free(this_copy.sources[source]);
    }
    free(this_copy.banner);
    free(this_copy.jar_path);
    memset(&this_copy, 0, sizeof this_copy);
}

/*
 * Makes good options this copy's, with what the Java side needs to start from `jar` (taken over): the texts they were
 * parsed from. Where memory runs short, gives them up with one line: the Java side must read the very options the
 * banner shows.
 */
static int adopt(agent_options *good, const char *const sources[SOURCE_COUNT], char *jar, entry_way way,
                 jvmtiEnv *jvmti) {
    this_copy.options = *good;
    this_copy.jar_path = jar;
    for (int source = 0; source < SOURCE_COUNT; source++) {
        this_copy.sources[source] = sources[source] == NULL ? NULL : strdup(sources[source]);
        if (sources[source] != NULL && this_copy.sources[source] == NULL) {
            forget_copy();
            say("off, the service runs without it: out of memory copying the options");
            return 0;
        }
    }
    this_copy.way = way;
    this_copy.jvmti = jvmti;
    this_copy.counts_sites = good->verbose || good->dry_run || good->report != NULL;
    return 1;
}

/* The jar that holds the Java side: the one premain or agentmain runs from, else the one beside the library. */
static char *find_jar(entry_way way, const char *given_jar) {
    char *jar = from_java(way) ? strdup(given_jar) : jar_beside_library();
    if (!from_java(way) && (jar == NULL || access(jar, R_OK) != 0)) {
        fprintf(stderr, "clock-agent: off, the service runs without it: %s needs %s, which holds the ticker, next to"
                " the library (java -jar clock-agent.jar agentpath writes the library there)\n", entry_name(way),
                jar != NULL ? jar : JAVA_JAR_FILE_NAME);
        free(jar);
        return NULL;
    }
    return jar;
}

/*
 * start_in with the sources read, `property_read` false where the property could not be: as options that cannot be
 * read, off with the out-of-memory line, as it must not pass for one not set.
 */
static entry_start start_with(jvmtiEnv *jvmti, JNIEnv *jni, entry_way way, const char *const sources[SOURCE_COUNT],
                              int property_read, const char *given_jar) {
    agent_options requested;
    char *error = NULL;
    int strict = 0;
    int parsed = property_read && parse_agent_options(sources, &requested, &error, &strict);
    /* Before the Java floor, as the -javaagent entry: whatever else there is to say, the operator said off. */
    const char *turned_off_source = parsed ? turned_off_by(&requested) : NULL;
    if (turned_off_source != NULL) {
        if (!requested.quiet) {
            fprintf(stderr, "clock-agent: " TURNED_OFF_FORMAT "\n", turned_off_source);
        }
        free_agent_options(&requested);
        return ENTRY_OFF;
    }
    /* strict=true stops a JVM at its start alone, as the Java agent's agentmain has it: never a service that runs. */
    strict = (parsed ? requested.strict == 1 : strict) && !attached(way);
    char why[200];
    /* From Java, Java judged the release before it loaded this library. */
    if (!from_java(way) && unsupported_java(jvmti, why, sizeof(why))) {
        free(error);
        if (parsed) {
            free_agent_options(&requested);
        }
        return refuse(strict, "unsupported Java", why);
    }
    if (!parsed) {
        error = explained(error, way, sources[SOURCE_AGENT_ARGUMENTS]);
        entry_start outcome = refuse(strict, "bad option", error != NULL ? error : "out of memory reading the options");
        free(error);
        return outcome;
    }
    if (requested.native_filter == 0 && from_java(way)) {
        free_agent_options(&requested);
        return ENTRY_FILTER_IN_JAVA;
    }
    copy_state now = copy_now();
    int another_active = jni != NULL && java_property_set(jni, JAVA_ACTIVE_COPY_PROPERTY);
    if (now == COPY_STANDING_DOWN && !another_active) {
        /*
         * The copy this one stood down for has detached (or the JVM refused this one's hook at VMInit), so none is
         * active: this one starts afresh, as one never started, in the environment of this start. Its own hook has
         * been off since it stood down, and it claimed nothing, started no Java side and restored nothing.
         */
        (*this_copy.jvmti)->DisposeEnvironment(this_copy.jvmti);
        forget_copy();
        now = COPY_IDLE;
    }
    if (now == COPY_DETACHED && !another_active && from_java(way)) {
        /*
         * A JVM looks up a native method in its agent libraries too: the jar's start, which this library's java.lang
         * class no longer binds after a detach, may land here, in a copy loaded through jcmd and detached. Java serves.
         */
        free_agent_options(&requested);
        return ENTRY_FILTER_IN_JAVA;
    }
    if (now != COPY_IDLE || another_active) {
        int quiet = requested.quiet;
        free_agent_options(&requested);
        if (now == COPY_DETACHED || !quiet) {
            say(now == COPY_DETACHED ? DETACHED_BEFORE : already_active(way));
        }
        return now == COPY_DETACHED ? ENTRY_REFUSED : ENTRY_OFF;
    }
    char *jar = find_jar(way, given_jar);
    if (jar == NULL) {
        free_agent_options(&requested);
        return from_java(way) ? ENTRY_FILTER_IN_JAVA : ENTRY_REFUSED;
    }
    if (!adopt(&requested, sources, jar, way, jvmti)) {
        return ENTRY_REFUSED;
    }
    if (!hook_install(jvmti, way == WAY_AGENTPATH, on_vm_init)) {
        forget_copy();
        return cannot_hook(way, "the JVM refused the class-load hook");
    }
    if (way != WAY_AGENTPATH) {
        take_the_jvm(jvmti, jni);
    }
    return ENTRY_HOOKED;
}

/*
 * start_copy with this JVMTI environment, which it keeps only if it hooks. From Java, `given_property` is the options'
 * property as Java reads it and `given_jar` the agent jar; otherwise this reads the property from the JVM and finds the
 * jar beside the library.
 */
static entry_start start_in(jvmtiEnv *jvmti, JNIEnv *jni, entry_way way, const char *arguments,
                            const char *given_property, const char *given_jar) {
    char *own_property = NULL;
    int property_read = from_java(way) || read_system_property(jvmti, AGENT_OPTIONS_SYSTEM_PROPERTY, &own_property);
    const char *sources[SOURCE_COUNT] = {arguments, from_java(way) ? given_property : own_property,
                                         getenv(AGENT_OPTIONS_ENVIRONMENT_VARIABLE)};
    entry_start outcome = start_with(jvmti, jni, way, sources, property_read, given_jar);
    (*jvmti)->Deallocate(jvmti, (unsigned char *) own_property);
    return outcome;
}

/*
 * The one start of this library, whichever way it came in (`way`): the options from their three sources, the Java
 * floor, the claim on this library and the jar that holds the Java side, the hook; then, in the live phase, the claim
 * on the JVM. `jni` is Java's, from premain or agentmain; an attach takes its own, and Agent_OnLoad has none yet.
 */
static entry_start start_copy(JavaVM *vm, JNIEnv *jni, entry_way way, const char *arguments,
                              const char *given_property, const char *given_jar) {
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **) &jvmti, JVMTI_VERSION_1_2) != JNI_OK) {
        return cannot_hook(way, "this JVM offers no JVMTI");
    }
    if (way == WAY_ATTACH && (*vm)->GetEnv(vm, (void **) &jni, JNI_VERSION_1_8) != JNI_OK) {
        (*jvmti)->DisposeEnvironment(jvmti);
        say("off, the service runs without it: the JVM offered the attach no JNI");
        return ENTRY_REFUSED;
    }
    entry_start outcome = start_in(jvmti, jni, way, arguments, given_property, given_jar);
    if (outcome != ENTRY_HOOKED) {
        (*jvmti)->DisposeEnvironment(jvmti);
    }
    return outcome;
}

entry_start start_for_java_agent(JNIEnv *jni, const char *arguments, const char *property, const char *jar,
                                 int attaching) {
    JavaVM *vm;
    return (*jni)->GetJavaVM(jni, &vm) != JNI_OK ? ENTRY_FILTER_IN_JAVA
            : start_copy(vm, jni, attaching ? WAY_JAVA_ATTACH : WAY_PREMAIN, arguments, property, jar);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *arguments, void *reserved) {
    (void) reserved;
    /* No Java runs yet that could stop the JVM where strict=true asks for it. */
    if (start_copy(vm, NULL, WAY_AGENTPATH, arguments, NULL, NULL) == ENTRY_STOP_JVM) {
        exit(1);
    }
    return JNI_OK;
}

/*
 * JVMTI.agent_load, from jcmd or jattach, into a running JVM. What the JVM reports to the one who asked (jcmd's return
 * code) says whether the agent came to serve: a refusal (a bad option, an unsupported Java, no jar beside the
 * library) is a failure; enabled=false, or a copy active already, is what the operator would have, and no failure.
 */
JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *arguments, void *reserved) {
    (void) reserved;
    return start_copy(vm, NULL, WAY_ATTACH, arguments, NULL, NULL) == ENTRY_REFUSED ? JNI_ERR : JNI_OK;
}
