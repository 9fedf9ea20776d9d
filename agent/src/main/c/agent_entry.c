/*
 * The native start, one for every way in: the -agentpath entry (java -agentpath:/path/libclockagent.so=OPTIONS, with
 * clock-agent.jar in the library's folder); the attach entry (jcmd PID JVMTI.agent_load /path/libclockagent.so
 * '"OPTIONS"', or jattach), into a running JVM, with the jar in the same place; and, from premain, the -javaagent
 * entry's start wherever the jar carries this library (java_agent_start.c). Each reaches start_copy, which reads the
 * options, judges the Java and puts the one hook below in place; what differs between them (the phase, where the
 * options' property and the jar come from, what a failure does) it takes from the way the start came in.
 *
 * Why -agentpath beside -javaagent: -javaagent makes the JVM add java.instrument to the module graph, which gives up
 * class-data sharing's archived module graph, and a runtime linked without java.instrument stops before main. This
 * entry needs neither: before any Java runs it reads the options with the C grammar (agent_options.c, held to the Java
 * parser by NativeOptionsParityTest), and from the first class in scope the hook below rewrites with the C rewriter
 * (call_site_rewriter.c). The cached clock is defined in java.lang through JNI as that class loads, from the bytes the
 * build renamed for it (cached_clock_class.h). Nothing else runs on the startup path: the ticker and the rest of the
 * agent's Java (NativeInstallation) start on a thread of their own, from the jar, in a class loader of their own, a
 * second after the clock exists (START_DELAY_MILLIS), once classes in scope stop loading and once the clock is read
 * often enough that caching could pay, so that a JVM that never loads a class to rewrite or seldom reads the clock
 * never loads them and a service's start does not share its CPUs with them; earlier only where verbose, report or
 * dryRun asks for them from the first class, or as JMX starts, for the MBean, or a detach is asked for. This side
 * counts what the hook does and, where sites are counted, shows the Java side each class it rewrote, holding those that
 * came before the Java side until it starts.
 *
 * Failure policy, as the Java entry's: a bad option or an unsupported Java prints one line and the service runs
 * unchanged, or with strict=true the JVM exits with status 1 before main (never once it runs: attached, the JVM reports
 * the failure to the one who asked, as jcmd's return code); a fault after that leaves classes unchanged or the clock on
 * its direct path, never the service stopped. enabled=false from any source comes before all of it: one line naming
 * the source, and nothing else done, whatever else the options say.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <jni.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "agent_entry.h"
#include "agent_options.h"
#include "banner.h"
#include "cached_clock_class.h"
#include "call_site_rewriter.h"
#include "class_scan.h"
#include "jvmti_allocate.h"
#include "option_grammar.h"

#define JAR_FILE_NAME "clock-agent.jar"
#define OLDEST_SUPPORTED_FEATURE 11
#define PLATFORM_LOADER_SIGNATURE "Ljdk/internal/loader/ClassLoaders$PlatformClassLoader;"
#define JAVA_SIDE_CLASS "io.clockagent.agent.internal.nativeentry.NativeEntry"
#define JAVA_SIDE_METHOD "start"
/*
 * The arguments go as their bytes, which the Java side decodes as UTF-8, as the C grammar read them: JNI's own strings
 * are modified UTF-8, in which a character beyond the Basic Multilingual Plane is not the four bytes of UTF-8, and a
 * report path holding one would name another file. The banner goes as JNI's string, as the claim it must equal does:
 * it holds only what the grammar accepts, characters of the Basic Multilingual Plane, the same in both encodings.
 */
#define JAVA_SIDE_DESCRIPTOR "([BLjava/lang/String;)Ljava/lang/Object;"
/* Where the Java side reads this hook's counts: the natives the native filter's Java side reads its own through. */
#define COUNTS_CLASS "io.clockagent.agent.internal.nativefilter.LibraryCalls"
/* Where the Java side restores the classes through: EntryCalls.restoreClasses. */
#define RESTORE_CLASS "io.clockagent.agent.internal.nativeentry.EntryCalls"
/* ActiveCopy.DETACH_SIGNAL, as a copy of the agent in its AgentClassLoader loads it to ask the active copy to detach. */
#define DETACH_SIGNAL "io/clockagent/agent/internal/activecopy/DetachSignal"
#define DETACHING_LOADER_SIGNATURE "Lio/clockagent/agent/AgentClassLoader;"
/* LoadedClasses.BATCH_SIZE: classes per retransformation; one failing class sends its batch through one by one. */
#define RETRANSFORM_BATCH_SIZE 64
/* JmxRegistration.MBEAN_SERVER_CLASS: the JDK loads it whenever an MBean server is created. */
#define MBEAN_SERVER_CLASS "com/sun/jmx/mbeanserver/JmxMBeanServer"
#define START_THREAD_NAME "clock-agent-start"
/*
 * The start thread's stack, at the least: the JVM's own default for a Java thread on aarch64 (ThreadStackSize, 1 MiB
 * on x86-64), since the thread runs Java once it joins the JVM. glibc's default (the stack limit, 8 MiB as a rule) is
 * kept; musl's is 128 KiB, of which the JVM's guard and shadow pages leave Java too little.
 */
#define START_THREAD_STACK_BYTES (2 * 1024 * 1024)
/*
 * How long after the first rewrite the start thread waits before it loads the Java side: past the start of most
 * services, which the Java side's loading would otherwise slow on a machine with few cores. Then it waits on while
 * classes in scope go on loading, as they do through a longer start (a Spring Boot start of 2 s, a program loading
 * classes for seconds), until none has loaded over a period of START_QUIET_MILLIS (it looks once a period, so as not
 * to wake often inside a start), and at the longest START_DELAY_MAX_MILLIS: the Java side started inside a start costs
 * it about as much as the hook's own work (benchmarks/README.md). Reads go to the direct clock meanwhile, counted, as
 * cache=auto has them start anyway. JMX's start or a detach request ends the wait, here or in the wait for reads below.
 */
#define START_DELAY_MILLIS 1000
#define START_QUIET_MILLIS 100
#define START_DELAY_MAX_MILLIS 10000
/*
 * Then it waits for the clock to be read: a JVM that reads it rarely (a tool, a service that logs now and then) has
 * no use for a ticker, as cache=auto would find, and never loads one. The Java side starts once rewritten sites read
 * the direct clock, which the clock counts, START_READS_PER_SECOND times a second over a step of
 * START_READS_STEP_MILLIS: a tenth of the rate from which caching pays where a read costs 2 us (hpet) and the ticker
 * 20 ms of CPU a second, so that cache=auto decides, with the ticker started, wherever caching could pay. With
 * cache=always it starts at the first read. One step a second: in a JVM that reads rarely the thread waits so for the
 * JVM's life, and then wakes once a second; a rate that pays starts the Java side within two seconds.
 */
#define START_READS_PER_SECOND 1000
#define START_READS_STEP_MILLIS 1000
#define DIRECT_READS_FIELD "DIRECT_READS"
/* ActiveCopy.PROPERTY, which the active copy, whichever its entry, claims with its banner. */
#define ACTIVE_COPY_PROPERTY "clockagent.active"
#define ALREADY_ACTIVE "already active in this JVM; the -agentpath copy does nothing"
#define NATIVE_FILTER_OFF_IGNORED "nativeFilter=false has no effect through %s, whose filter is this native hook" \
        " alone; the Java transformer serves through -javaagent"
/* Installer's line, which the -javaagent and attach entries say when they start here. */
#define JAVA_AGENT_ALREADY_ACTIVE "already active in this JVM; this copy does nothing"
/*
 * jcmd reads JVMTI.agent_load's arguments as its own, name=value, and passes the library an option only up to its first
 * '=' unless the options are quoted; what reaches the library then holds no '=' at all.
 */
#define JCMD_QUOTING_HINT "; jcmd passes the options only up to their first '=' unless they are quoted, as in" \
        " jcmd PID JVMTI.agent_load LIBRARY '\"include=com.acme\"'"
#define DETACHED_BEFORE "not attached: this library was detached from this JVM before, and starts in a JVM once;" \
        " attach again with java -jar clock-agent.jar attach"

/*
 * Which way a start came in. It decides the phase the start runs in, where the options' property and the jar come
 * from, whether strict=true may stop the JVM, and what happens to the classes in scope loaded before the hook.
 */
typedef enum {
    /* Agent_OnLoad, before any Java runs: the hook goes on at VMInit, which rewrites what loaded before it. */
    WAY_AGENTPATH,
    /* premain, through java_agent_start.c: Java has judged the release and read the property, and names the jar. */
    WAY_PREMAIN,
    /* Agent_OnAttach, into a running service: the hook goes on at once and rewrites the classes already loaded. */
    WAY_ATTACH
} entry_way;

/*
 * This library's copy of the agent, one state for its life. The JVM loads a library named twice (JAVA_TOOL_OPTIONS
 * and the command line, or two JVMTI.agent_load) once, and calls its entry for each: the first start hooks, as with
 * two -javaagent copies, and the others leave alone what it set up.
 */
typedef enum {
    /* Nothing hooked: no start yet, or the starts so far found the agent off or another copy active. */
    COPY_IDLE,
    /* The hook rewrites classes in scope (at the JVM's load: will, from VMInit on). */
    COPY_HOOKED,
    /*
     * Another copy held the JVM as this one came to take it (a -javaagent copy, whose transformer rewrites and whose
     * ticker ticks the one clock), or the JVM refused the hook at VMInit: the hook leaves every class as it is.
     */
    COPY_STANDING_DOWN,
    /* Detached: the hook off for good and the original code restored. */
    COPY_DETACHED
} copy_state;

typedef enum { CLOCK_NOT_DEFINED, CLOCK_DEFINED, CLOCK_FAILED } clock_state;

/*
 * A class rewritten, or left with reads of instants direct, before the Java side started, with its original bytes,
 * for the sites it counts.
 */
typedef struct held_rewrite {
    struct held_rewrite *next;
    char *name;
    jint length;
    unsigned char *bytes;
    int rewritten;
} held_rewrite;

static const unsigned char CLOCK_CLASS_BYTES[] = CACHED_CLOCK_CLASS_BYTES;
static const char *const IGNORED[] = IGNORED_PREFIXES_AND_REASONS;

static agent_options options;
/* The agent arguments as given, for the Java side, which reads the three sources again with the Java parser. */
static char *agent_arguments;
/* What this copy printed and claimed the JVM with, as the Java side's AgentVersion.banner writes it. */
static char *banner;
static char *jar_path;

/*
 * The clock's definition, by the first hook that needs it.
 *
 * The lock order, outermost first: what the JVM holds for the class a hook runs for (its loader's lock where the
 * loader is not parallel-capable, the class's placeholder); clock_lock; what the JVM takes to define the clock in the
 * boot loader, and what other agents take in the hooks and Java transformers that DefineClass shows the clock's class
 * to, on the defining thread; java_side_lock, under which nothing else is taken (it guards flags, the held rewrites
 * and the start thread's wait outside the JVM). clock_lock covers DefineClass alone, with the FindClass and the
 * exception's toString of a failed one: the calls into the Java side for the clock (writeAccess, clockDefined) and
 * the shown rewrites come after it is released. A hook entered again on the defining thread, for a class another
 * agent loads there, must not wait for clock_lock, which that thread holds: defining_clock has the class load
 * unchanged. A hook on another thread waits for clock_lock holding its own class's locks, so another agent that,
 * shown the clock's class, waits for a class that thread is loading would deadlock the two; defining the clock
 * outside clock_lock, or before the hook goes on, would end that.
 */
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static clock_state clock_status = CLOCK_NOT_DEFINED;
static jclass clock_class;
/* Set on the thread that defines the clock, while it does. */
static __thread int defining_clock;
/*
 * The start thread begins once the JVM has initialised, which it joins later, and the Java side is wanted (the clock
 * defined, JMX starting, a detach asked for), whichever comes second. Where sites are counted, the JVM's start runs
 * the Java side itself (on_vm_init).
 */
static int vm_initialized;
static int java_side_wanted;
static int java_side_started;

static long classes_scanned;
static long classes_rewritten;
/* Whether sites are counted (verbose, report, dryRun): then each rewritten class is shown to the Java side. */
static int counts_sites;

/*
 * The Java side once started (a NativeInstallation), what it has been told, and the rewrites held for it until
 * then; guarded by java_side_lock, the innermost lock (see clock_lock), never held across a call into the JVM. Its
 * method ids are set before it is.
 */
static pthread_mutex_t java_side_lock = PTHREAD_MUTEX_INITIALIZER;
static jobject installation;
static jmethodID clock_defined_method;
static jmethodID rewrote_natively_method;
static jmethodID left_instant_reads_method;
static jmethodID jmx_starting_method;
static jmethodID detach_requested_method;
static int clock_told;
static int jmx_seen;
static int jmx_told;
static int detach_seen;
static int detach_told;
static held_rewrite *held_first;
static held_rewrite **held_last = &held_first;
/*
 * Signalled with java_side_lock held when JMX's start or a detach request asks for the Java side: the start thread
 * waits on it rather than waking to look, since each wake inside a start costs the start more than its few
 * instructions (benchmarks/README.md). It measures its time on the monotonic clock, which asked_signal_ready sets.
 */
static pthread_cond_t java_side_asked_signal;
static pthread_once_t asked_signal_once = PTHREAD_ONCE_INIT;
/* Set if the Java side could not start: nothing is held for it from then on. */
static int java_side_failed;

static int unreadable_reported;
/*
 * Set on a thread while it retransforms the classes in scope loaded before the hook (at VMInit, attached), so that the
 * hook tells this copy's first sight of such a class from another agent's retransformation of a class it has seen:
 * only the first is counted and shown to the Java side.
 */
static __thread int retransforming_for_this_copy;
/* This entry's JVMTI environment, for the restore at a detach. */
static jvmtiEnv *entry_jvmti;
/* How this copy started; set with its options. */
static entry_way started_by;
/* The JVM the start thread joins once it has something to ask of Java. */
static JavaVM *start_vm;
static copy_state state = COPY_IDLE;

static void say(const char *line) {
    fprintf(stderr, "clock-agent: %s\n", line);
    fflush(stderr);
}

static int starts_with_any(const package_prefixes *prefixes, const char *name) {
    for (size_t i = 0; i < prefixes->count; i++) {
        if (strncmp(name, prefixes->prefixes[i], strlen(prefixes->prefixes[i])) == 0) {
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

/* The Java side's RewriteScope by name: excludes win, no include means everything, the JDK and agent never. */
static int in_scope(const char *name) {
    return !starts_with_any(&options.excludes, name)
            && (options.includes.count == 0 || starts_with_any(&options.includes, name)) && !ignored(name);
}

/* Whether the loader's class has this signature; asked only of the few classes that could need it. */
static int loader_is(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader, const char *loader_signature) {
    jclass loader_class = (*jni)->GetObjectClass(jni, loader);
    char *signature = NULL;
    int matches = loader_class != NULL
            && (*jvmti)->GetClassSignature(jvmti, loader_class, &signature, NULL) == JVMTI_ERROR_NONE
            && strcmp(signature, loader_signature) == 0;
    if (signature != NULL) {
        (*jvmti)->Deallocate(jvmti, (unsigned char *) signature);
    }
    if (loader_class != NULL) {
        (*jni)->DeleteLocalRef(jni, loader_class);
    }
    return matches;
}

/* The platform loader defines JDK classes outside the boot loader; asked only of classes that name the clock. */
static int is_platform_loader(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader) {
    return loader_is(jvmti, jni, loader, PLATFORM_LOADER_SIGNATURE);
}

/* The exception pending on this thread as one line, cleared; a description of the failure if it has none. */
static char *take_exception(JNIEnv *jni, const char *otherwise) {
    jthrowable failure = (*jni)->ExceptionOccurred(jni);
    if (failure == NULL) {
        return strdup(otherwise);
    }
    (*jni)->ExceptionClear(jni);
    jclass object_class = (*jni)->FindClass(jni, "java/lang/Object");
    jmethodID to_string = object_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, object_class, "toString", "()Ljava/lang/String;");
    jstring text = to_string == NULL ? NULL : (*jni)->CallObjectMethod(jni, failure, to_string);
    const char *chars = text == NULL ? NULL : (*jni)->GetStringUTFChars(jni, text, NULL);
    char *line = strdup(chars != NULL ? chars : otherwise);
    if (chars != NULL) {
        (*jni)->ReleaseStringUTFChars(jni, text, chars);
    }
    (*jni)->ExceptionClear(jni);
    return line;
}

/* The bytes of a C string as a Java array; NULL with an exception pending. */
static jbyteArray java_bytes(JNIEnv *jni, const char *text) {
    jsize length = (jsize) strlen(text);
    jbyteArray bytes = (*jni)->NewByteArray(jni, length);
    if (bytes != NULL) {
        (*jni)->SetByteArrayRegion(jni, bytes, 0, length, (const jbyte *) text);
    }
    return bytes;
}

/* Calls a static method that returns an object, on a class found by its loader; NULL with an exception pending. */
static jobject call_static(JNIEnv *jni, jclass owner, const char *method, const char *descriptor, jobject argument) {
    jmethodID id = owner == NULL ? NULL : (*jni)->GetStaticMethodID(jni, owner, method, descriptor);
    return id == NULL ? NULL : (*jni)->CallStaticObjectMethod(jni, owner, id, argument);
}

static void start_java_side_once(JNIEnv *jni);
static void tell_java_side(JNIEnv *jni);

/* Starts the Java side now if the JVM is ready for it, or as soon as it is. */
static void want_java_side(JNIEnv *jni) {
    __atomic_store_n(&java_side_wanted, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&vm_initialized, __ATOMIC_SEQ_CST)) {
        start_java_side_once(jni);
    }
}

/*
 * Defines the clock in java.lang on the first call, or finds the one a -javaagent copy defined (the definition then
 * fails as a duplicate), and starts the Java side if the JVM is ready for it. Whether rewritten classes may now read it.
 */
static int clock_ready(JNIEnv *jni) {
    if (defining_clock) {
        /* Inside the definition, whose lock this thread holds: the class loads unchanged. */
        return 0;
    }
    pthread_mutex_lock(&clock_lock);
    int first = clock_status == CLOCK_NOT_DEFINED;
    if (first) {
        defining_clock = 1;
        jclass defined = (*jni)->DefineClass(jni, CACHED_CLOCK_INTERNAL_NAME, NULL,
                                             (const jbyte *) CLOCK_CLASS_BYTES, (jsize) sizeof(CLOCK_CLASS_BYTES));
        char *why = NULL;
        if (defined == NULL) {
            why = take_exception(jni, "out of memory");
            defined = (*jni)->FindClass(jni, CACHED_CLOCK_INTERNAL_NAME);
            (*jni)->ExceptionClear(jni);
        }
        if (defined != NULL) {
            clock_class = (*jni)->NewGlobalRef(jni, defined);
        }
        if (clock_class == NULL) {
            fprintf(stderr, "clock-agent: off, classes load unchanged: could not define the cached clock: %s\n",
                    why != NULL ? why : "out of memory");
        }
        free(why);
        __atomic_store_n(&clock_status, clock_class != NULL ? CLOCK_DEFINED : CLOCK_FAILED, __ATOMIC_SEQ_CST);
        defining_clock = 0;
    }
    int ready = clock_status == CLOCK_DEFINED;
    pthread_mutex_unlock(&clock_lock);
    if (first && ready) {
        want_java_side(jni);
        tell_java_side(jni);
    }
    return ready;
}

/* Calls a method of the Java side, which reads only the arguments it takes; a failure there changes nothing here. */
static void call_java_side(JNIEnv *jni, jmethodID method, jobject first, jobject second) {
    (*jni)->CallVoidMethod(jni, installation, method, first, second);
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->ExceptionClear(jni);
    }
}

/* A copy of a class to show the Java side, held until it starts; dropped if memory runs short. */
static void hold_rewrite(const char *name, jint length, const unsigned char *bytes, int rewritten) {
    held_rewrite *held = malloc(sizeof *held);
    char *name_copy = strdup(name);
    unsigned char *bytes_copy = malloc((size_t) length);
    if (held == NULL || name_copy == NULL || bytes_copy == NULL) {
        free(held);
        free(name_copy);
        free(bytes_copy);
        return;
    }
    memcpy(bytes_copy, bytes, (size_t) length);
    *held = (held_rewrite) {NULL, name_copy, length, bytes_copy, rewritten};
    *held_last = held;
    held_last = &held->next;
}

/* Shows the Java side a class rewritten here, or left with reads of instants direct, for the sites it counts. */
static void show_rewrite(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    jstring java_name = (*jni)->NewStringUTF(jni, name);
    jbyteArray original = java_name == NULL ? NULL : (*jni)->NewByteArray(jni, length);
    if (original != NULL) {
        (*jni)->SetByteArrayRegion(jni, original, 0, length, (const jbyte *) bytes);
        call_java_side(jni, rewritten ? rewrote_natively_method : left_instant_reads_method, java_name, original);
        (*jni)->DeleteLocalRef(jni, original);
    }
    (*jni)->ExceptionClear(jni);
    if (java_name != NULL) {
        (*jni)->DeleteLocalRef(jni, java_name);
    }
}

/* Shows the Java side, now or once it starts, a class to count the sites of; only while sites are counted. */
static void show_class(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten) {
    pthread_mutex_lock(&java_side_lock);
    int started = installation != NULL;
    if (!started && !java_side_failed) {
        hold_rewrite(name, length, bytes, rewritten);
    }
    pthread_mutex_unlock(&java_side_lock);
    if (started) {
        show_rewrite(jni, name, length, bytes, rewritten);
    }
}

static void rewrote(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes) {
    __atomic_add_fetch(&classes_rewritten, 1, __ATOMIC_RELAXED);
    if (counts_sites) {
        show_class(jni, name, length, bytes, 1);
    }
}

static void make_asked_signal(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&java_side_asked_signal, &attributes);
    pthread_condattr_destroy(&attributes);
}

/* Makes java_side_asked_signal on first use, from whichever thread comes first: the hook's or the start thread. */
static void asked_signal_ready(void) {
    pthread_once(&asked_signal_once, make_asked_signal);
}

/* The Java side will not start: frees what was held for it, and holds nothing more. */
static void java_side_gone(void) {
    pthread_mutex_lock(&java_side_lock);
    java_side_failed = 1;
    held_rewrite *held = held_first;
    held_first = NULL;
    held_last = &held_first;
    pthread_mutex_unlock(&java_side_lock);
    while (held != NULL) {
        held_rewrite *next = held->next;
        free(held->name);
        free(held->bytes);
        free(held);
        held = next;
    }
}

/*
 * Tells the Java side, once it has started, what it has not been told yet: the rewrites held for it, the clock's
 * definition (with the clock's write access, which only JNI can take from its private method), JMX's start.
 */
static void tell_java_side(JNIEnv *jni) {
    pthread_mutex_lock(&java_side_lock);
    int started = installation != NULL;
    held_rewrite *held = started ? held_first : NULL;
    if (started) {
        held_first = NULL;
        held_last = &held_first;
    }
    int tell_clock = started && !clock_told && __atomic_load_n(&clock_status, __ATOMIC_SEQ_CST) == CLOCK_DEFINED;
    int tell_jmx = started && !jmx_told && jmx_seen;
    int tell_detach = started && !detach_told && detach_seen;
    clock_told |= tell_clock;
    jmx_told |= tell_jmx;
    detach_told |= tell_detach;
    pthread_mutex_unlock(&java_side_lock);
    while (held != NULL) {
        held_rewrite *next = held->next;
        show_rewrite(jni, held->name, held->length, held->bytes, held->rewritten);
        free(held->name);
        free(held->bytes);
        free(held);
        held = next;
    }
    if (tell_clock) {
        jobject access = call_static(jni, clock_class, "writeAccess", "()Ljava/lang/invoke/MethodHandles$Lookup;",
                                     NULL);
        if (access == NULL) {
            char *why = take_exception(jni, "no lookup");
            fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: %s\n", why);
            free(why);
        } else {
            call_java_side(jni, clock_defined_method, clock_class, access);
        }
    }
    if (tell_jmx) {
        call_java_side(jni, jmx_starting_method, NULL, NULL);
    }
    if (tell_detach) {
        call_java_side(jni, detach_requested_method, NULL, NULL);
    }
}

/*
 * Something the Java side acts on has happened, which `seen` records: the JDK's MBean server class loading (the Java
 * side registers the MBean) or another copy's detach request. The Java side is told, starting for it if need be.
 */
static void java_side_needed(JNIEnv *jni, int *seen) {
    asked_signal_ready();
    pthread_mutex_lock(&java_side_lock);
    *seen = 1;
    pthread_cond_broadcast(&java_side_asked_signal);
    pthread_mutex_unlock(&java_side_lock);
    want_java_side(jni);
    tell_java_side(jni);
}

static void JNICALL on_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass being_redefined, jobject loader,
                                       const char *name, jobject protection_domain, jint length,
                                       const unsigned char *bytes, jint *new_length, unsigned char **new_bytes) {
    (void) protection_domain;
    if (__atomic_load_n(&state, __ATOMIC_RELAXED) != COPY_HOOKED || name == NULL) {
        return;
    }
    if (loader == NULL) {
        if (options.jmx && strcmp(name, MBEAN_SERVER_CLASS) == 0) {
            java_side_needed(jni, &jmx_seen);
        }
        return;
    }
    if (strcmp(name, DETACH_SIGNAL) == 0 && loader_is(jvmti, jni, loader, DETACHING_LOADER_SIGNATURE)) {
        java_side_needed(jni, &detach_seen);
        return;
    }
    if (!in_scope(name)) {
        return;
    }
    /*
     * A class another agent retransforms comes here again, from the bytes it was loaded from: it is rewritten again,
     * as this environment's rewrite would otherwise be lost, but counted and shown once, as the service has it once.
     */
    int first_sight = being_redefined == NULL || retransforming_for_this_copy;
    if (first_sight) {
        __atomic_add_fetch(&classes_scanned, 1, __ATOMIC_RELAXED);
    }
    if (!names_clock_method(bytes, length) || is_platform_loader(jvmti, jni, loader)) {
        return;
    }
    int cached_instants = starts_with_any(&options.cached_instants, name);
    rewrite_outcome outcome = rewrite_call_sites(bytes, length, CACHED_CLOCK_INTERNAL_NAME, cached_instants,
                                                 jvmti_allocate, jvmti, new_length, new_bytes);
    if (outcome == REWRITE_DONE && !options.dry_run && !clock_ready(jni)) {
        /* The clock could not be defined: the class loads as it was. */
        (*jvmti)->Deallocate(jvmti, *new_bytes);
        *new_bytes = NULL;
        *new_length = 0;
        return;
    }
    if (outcome == REWRITE_DONE) {
        if (first_sight) {
            rewrote(jni, name, length, bytes);
        }
        if (options.dry_run) {
            /* Found, counted and shown; the class loads as it was. */
            (*jvmti)->Deallocate(jvmti, *new_bytes);
            *new_bytes = NULL;
            *new_length = 0;
        }
    }
    if (outcome == REWRITE_NOT_NEEDED && counts_sites && first_sight && !cached_instants
            && keeps_instant_reads(bytes, length, CACHED_CLOCK_INTERNAL_NAME)) {
        show_class(jni, name, length, bytes, 0);
    }
    if (outcome == REWRITE_LEFT_TO_JAVA && !__atomic_exchange_n(&unreadable_reported, 1, __ATOMIC_RELAXED)) {
        fprintf(stderr, "clock-agent: left %s unchanged, and any other class file of a form the rewriter cannot"
                " read with certainty (an unknown kind of constant, a malformed or full constant pool)\n", name);
    }
}

/* A class loader over the jar alone, above the platform loader: the agent's Java stays apart from the service. */
static jobject agent_loader(JNIEnv *jni) {
    jclass file_class = (*jni)->FindClass(jni, "java/io/File");
    jmethodID file_init = file_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, file_class, "<init>", "(Ljava/lang/String;)V");
    jmethodID to_uri = file_class == NULL ? NULL : (*jni)->GetMethodID(jni, file_class, "toURI", "()Ljava/net/URI;");
    jclass uri_class = (*jni)->FindClass(jni, "java/net/URI");
    jmethodID to_url = uri_class == NULL ? NULL : (*jni)->GetMethodID(jni, uri_class, "toURL", "()Ljava/net/URL;");
    jclass url_class = (*jni)->FindClass(jni, "java/net/URL");
    jclass loader_class = (*jni)->FindClass(jni, "java/lang/ClassLoader");
    jclass url_loader_class = (*jni)->FindClass(jni, "java/net/URLClassLoader");
    jmethodID url_loader_init = url_loader_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, url_loader_class, "<init>", "([Ljava/net/URL;Ljava/lang/ClassLoader;)V");
    if (file_init == NULL || to_uri == NULL || to_url == NULL || url_class == NULL || url_loader_init == NULL) {
        return NULL;
    }
    jstring path = (*jni)->NewStringUTF(jni, jar_path);
    jobject file = path == NULL ? NULL : (*jni)->NewObject(jni, file_class, file_init, path);
    jobject uri = file == NULL ? NULL : (*jni)->CallObjectMethod(jni, file, to_uri);
    jobject url = uri == NULL ? NULL : (*jni)->CallObjectMethod(jni, uri, to_url);
    jobjectArray urls = url == NULL ? NULL : (*jni)->NewObjectArray(jni, 1, url_class, url);
    jobject platform = urls == NULL ? NULL
            : call_static(jni, loader_class, "getPlatformClassLoader", "()Ljava/lang/ClassLoader;", NULL);
    return platform == NULL ? NULL : (*jni)->NewObject(jni, url_loader_class, url_loader_init, urls, platform);
}

/* The hook's counts, as the Java side reads them through LibraryCalls.classesScanned and classesRewritten. */
static jlong JNICALL scanned(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&classes_scanned, __ATOMIC_RELAXED);
}

static jlong JNICALL rewritten(JNIEnv *jni, jclass calls) {
    (void) jni;
    (void) calls;
    return __atomic_load_n(&classes_rewritten, __ATOMIC_RELAXED);
}

/*
 * Retransforms a batch of loaded classes; false if the batch failed. The JVM keeps the bytes each class was loaded
 * from, since this environment can retransform: the hook, if on, rewrites those again, and with it off the JVM
 * defines them again as they were.
 */
static int retransform(jclass *batch, jint count) {
    retransforming_for_this_copy = 1;
    int done = count == 0 || (*entry_jvmti)->RetransformClasses(entry_jvmti, count, batch) == JVMTI_ERROR_NONE;
    retransforming_for_this_copy = 0;
    return done;
}

/* Whether a loaded class is one the hook rewrites: in scope, from an application loader, modifiable. */
static int may_be_rewritten(JNIEnv *jni, jclass loaded) {
    jobject loader = NULL;
    char *signature = NULL;
    jboolean modifiable = JNI_FALSE;
    int candidate = (*entry_jvmti)->GetClassLoader(entry_jvmti, loaded, &loader) == JVMTI_ERROR_NONE
            && loader != NULL
            && (*entry_jvmti)->IsModifiableClass(entry_jvmti, loaded, &modifiable) == JVMTI_ERROR_NONE && modifiable
            && (*entry_jvmti)->GetClassSignature(entry_jvmti, loaded, &signature, NULL) == JVMTI_ERROR_NONE
            && signature[0] == 'L';
    if (candidate) {
        /* "Lcom/acme/Name;" to "com/acme/Name"; a hidden class's name holds a '.', and no class file. */
        size_t length = strlen(signature);
        signature[length - 1] = '\0';
        candidate = strchr(signature, '.') == NULL && in_scope(signature + 1)
                && !is_platform_loader(entry_jvmti, jni, loader);
    }
    if (signature != NULL) {
        (*entry_jvmti)->Deallocate(entry_jvmti, (unsigned char *) signature);
    }
    if (loader != NULL) {
        (*jni)->DeleteLocalRef(jni, loader);
    }
    return candidate;
}

/*
 * Retransforms every loaded class in scope, in batches, one by one where a batch fails; returns how many were
 * retransformed. With the hook on that rewrites them, with it off for good that restores their original code.
 */
static jint retransform_in_scope(JNIEnv *jni) {
    jint count = 0;
    jclass *classes = NULL;
    if ((*entry_jvmti)->GetLoadedClasses(entry_jvmti, &count, &classes) != JVMTI_ERROR_NONE) {
        return 0;
    }
    jint covered = 0;
    for (jint i = 0; i < count; i++) {
        if (may_be_rewritten(jni, classes[i])) {
            classes[covered++] = classes[i];
        } else {
            (*jni)->DeleteLocalRef(jni, classes[i]);
        }
    }
    jint retransformed = 0;
    for (jint start = 0; start < covered; start += RETRANSFORM_BATCH_SIZE) {
        jint size = covered - start < RETRANSFORM_BATCH_SIZE ? covered - start : RETRANSFORM_BATCH_SIZE;
        if (retransform(classes + start, size)) {
            retransformed += size;
            continue;
        }
        for (jint i = start; i < start + size; i++) {
            if (retransform(classes + i, 1)) {
                retransformed++;
            } else {
                char *signature = NULL;
                (*entry_jvmti)->GetClassSignature(entry_jvmti, classes[i], &signature, NULL);
                fprintf(stderr, "clock-agent: left %s as it was: could not retransform it\n",
                        signature != NULL ? signature : "a class");
                (*entry_jvmti)->Deallocate(entry_jvmti, (unsigned char *) signature);
            }
        }
    }
    for (jint i = 0; i < covered; i++) {
        (*jni)->DeleteLocalRef(jni, classes[i]);
    }
    (*entry_jvmti)->Deallocate(entry_jvmti, (unsigned char *) classes);
    return retransformed;
}

/*
 * EntryCalls.restoreClasses: turns the hook off for good and restores the original code of every loaded class in
 * scope, as the -javaagent entry's detach does (LoadedClasses); returns how many were retransformed.
 */
static jint JNICALL restore_classes(JNIEnv *jni, jclass calls) {
    (void) calls;
    __atomic_store_n(&state, COPY_DETACHED, __ATOMIC_SEQ_CST);
    (*entry_jvmti)->SetEventNotificationMode(entry_jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
    return retransform_in_scope(jni);
}

/* A class of the agent's, found in its loader without initialising it; NULL with an exception pending. */
static jclass agent_class(JNIEnv *jni, jobject loader, const char *name, jboolean initialize) {
    jclass class_class = (*jni)->FindClass(jni, "java/lang/Class");
    jmethodID for_name = class_class == NULL ? NULL : (*jni)->GetStaticMethodID(jni, class_class, "forName",
            "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
    jstring java_name = for_name == NULL ? NULL : (*jni)->NewStringUTF(jni, name);
    return java_name == NULL ? NULL
            : (*jni)->CallStaticObjectMethod(jni, class_class, for_name, java_name, initialize, loader);
}

/* Binds the natives the Java side reads the hook's counts and restores classes through; false with an exception. */
static int bind_counts(JNIEnv *jni, jobject loader) {
    static const JNINativeMethod counts[] = {
        {"classesScanned", "()J", (void *) scanned},
        {"classesRewritten", "()J", (void *) rewritten},
    };
    static const JNINativeMethod restore[] = {
        {"restoreClasses", "()I", (void *) restore_classes},
    };
    jclass counts_class = agent_class(jni, loader, COUNTS_CLASS, JNI_FALSE);
    jclass restore_class = counts_class == NULL ? NULL : agent_class(jni, loader, RESTORE_CLASS, JNI_FALSE);
    return restore_class != NULL
            && (*jni)->RegisterNatives(jni, counts_class, counts, (jint) (sizeof counts / sizeof counts[0])) == JNI_OK
            && (*jni)->RegisterNatives(jni, restore_class, restore, 1) == JNI_OK;
}

/* Takes the started Java side's methods, then the side itself, so that a hook that finds it finds them too. */
static int serve(JNIEnv *jni, jobject started) {
    jclass installation_class = (*jni)->GetObjectClass(jni, started);
    jmethodID clock_defined = (*jni)->GetMethodID(jni, installation_class, "clockDefined",
            "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandles$Lookup;)V");
    jmethodID rewrote_natively = clock_defined == NULL ? NULL
            : (*jni)->GetMethodID(jni, installation_class, "rewroteNatively", "(Ljava/lang/String;[B)V");
    jmethodID left_instant_reads = rewrote_natively == NULL ? NULL
            : (*jni)->GetMethodID(jni, installation_class, "leftInstantReadsNatively", "(Ljava/lang/String;[B)V");
    jmethodID jmx = left_instant_reads == NULL ? NULL
            : (*jni)->GetMethodID(jni, installation_class, "jmxStarting", "()V");
    jmethodID detach = jmx == NULL ? NULL : (*jni)->GetMethodID(jni, installation_class, "detachRequested", "()V");
    jobject global = detach == NULL ? NULL : (*jni)->NewGlobalRef(jni, started);
    if (global == NULL) {
        return 0;
    }
    pthread_mutex_lock(&java_side_lock);
    clock_defined_method = clock_defined;
    rewrote_natively_method = rewrote_natively;
    left_instant_reads_method = left_instant_reads;
    jmx_starting_method = jmx;
    detach_requested_method = detach;
    installation = global;
    pthread_mutex_unlock(&java_side_lock);
    return 1;
}

/*
 * The start thread, or the JVM's start where sites are counted: loads the agent's Java side from the jar, binds the
 * natives it reads the counts through, starts it, and tells it what happened before. Each step runs only if the one
 * before left no exception pending.
 */
static void start_java_side(JNIEnv *jni) {
    jobject loader = agent_loader(jni);
    jclass entry = loader == NULL || !bind_counts(jni, loader) ? NULL
            : agent_class(jni, loader, JAVA_SIDE_CLASS, JNI_TRUE);
    jmethodID start = entry == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, entry, JAVA_SIDE_METHOD, JAVA_SIDE_DESCRIPTOR);
    jbyteArray arguments = start == NULL || agent_arguments == NULL ? NULL : java_bytes(jni, agent_arguments);
    jstring claimed = start == NULL || (*jni)->ExceptionCheck(jni) ? NULL : (*jni)->NewStringUTF(jni, banner);
    jobject started = claimed == NULL ? NULL : (*jni)->CallStaticObjectMethod(jni, entry, start, arguments, claimed);
    if (started != NULL && !(*jni)->ExceptionCheck(jni) && serve(jni, started)) {
        tell_java_side(jni);
        return;
    }
    if (start == NULL || (*jni)->ExceptionCheck(jni)) {
        char *why = take_exception(jni, "out of memory");
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: could not load the"
                " agent from %s: %s\n", jar_path, why);
        free(why);
    }
    java_side_gone();
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
static char *make_banner(void) {
    char *described = describe_agent_options(&options);
    char *source = clocksource();
    char *made = NULL;
    if (described != NULL && source != NULL) {
        const char *doing = options.dry_run ? BANNER_DRY_RUN : BANNER_CACHING;
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
 * The reads of the direct clock that rewritten sites have made, as the clock counts them in its stripes; -1 where they
 * cannot be read (the clock not defined, as when JMX or a detach asked for the Java side first).
 */
static long direct_reads(JNIEnv *jni) {
    /* Only the start thread reads the count, at each step: the field is looked up once. */
    static jfieldID field;
    if (field == NULL && clock_class != NULL) {
        field = (*jni)->GetStaticFieldID(jni, clock_class, DIRECT_READS_FIELD, "[J");
    }
    jlongArray stripes = field == NULL ? NULL : (*jni)->GetStaticObjectField(jni, clock_class, field);
    jlong *counts = stripes == NULL ? NULL : (*jni)->GetLongArrayElements(jni, stripes, NULL);
    if (counts == NULL) {
        (*jni)->ExceptionClear(jni);
        return -1;
    }
    long reads = 0;
    for (jsize i = 0, length = (*jni)->GetArrayLength(jni, stripes); i < length; i++) {
        reads += (long) counts[i];
    }
    (*jni)->ReleaseLongArrayElements(jni, stripes, counts, JNI_ABORT);
    (*jni)->DeleteLocalRef(jni, stripes);
    return reads;
}

/*
 * Waits outside the JVM, which neither sees nor waits for this thread, until `millis` have passed or JMX's start or a
 * detach request asks for the Java side; whether it was asked.
 */
static int await_asked_outside_jvm(long millis) {
    asked_signal_ready();
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += millis / 1000;
    deadline.tv_nsec += (millis % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&java_side_lock);
    int waited = 0;
    while (!jmx_seen && !detach_seen && waited != ETIMEDOUT) {
        waited = pthread_cond_timedwait(&java_side_asked_signal, &java_side_lock, &deadline);
    }
    int asked = jmx_seen || detach_seen;
    pthread_mutex_unlock(&java_side_lock);
    return asked;
}

/* Whether JMX's start or a detach request asks for the Java side now. */
static int java_side_asked(void) {
    pthread_mutex_lock(&java_side_lock);
    int asked = jmx_seen || detach_seen;
    pthread_mutex_unlock(&java_side_lock);
    return asked;
}

/*
 * Waits for the clock to be read often enough (START_READS_PER_SECOND), or for the Java side to be asked for, in
 * Java's Thread.sleep: the JVM's exit waits up to 300 ms for a thread of its own that sits in native code.
 */
static void await_reads(JNIEnv *jni) {
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID sleep = thread_class == NULL ? NULL : (*jni)->GetStaticMethodID(jni, thread_class, "sleep", "(J)V");
    long reads_needed = caches_always(&options) ? 1 : START_READS_PER_SECOND * START_READS_STEP_MILLIS / 1000;
    long reads_before = -1;
    while (sleep != NULL && !java_side_asked()) {
        long reads = direct_reads(jni);
        if (reads < 0 || (reads_before >= 0 && reads - reads_before >= reads_needed)) {
            return;
        }
        reads_before = reads;
        (*jni)->CallStaticVoidMethod(jni, thread_class, sleep, (jlong) START_READS_STEP_MILLIS);
        if ((*jni)->ExceptionCheck(jni)) {
            /* Interrupted: start now rather than call Java with the exception pending. */
            return;
        }
    }
}

/*
 * The start thread: waits out the start delay and the class loading in scope after it (START_QUIET_MILLIS), then for
 * reads of the clock, then starts the Java side. Until the delay is over it is a thread of the library's own, outside
 * the JVM, which neither sees it nor waits for it: a Java thread made as the clock is defined, inside the start, cost
 * a Kotlin start on JDK 25 2.5 % of the do-nothing native agent (benchmarks/README.md). Then it joins the JVM, as a
 * daemon, to count the reads. Attached to a service that runs, it has no start to keep out of, and skips the delay.
 */
static void *delayed_start(void *unused) {
    (void) unused;
    /*
     * The JVM names only the threads it starts; this one would keep the name of the thread that made it. The kernel
     * keeps the first 15 bytes, which top -H and /proc show.
     */
    prctl(PR_SET_NAME, START_THREAD_NAME, 0, 0, 0);
    /* Until the delay is nearly over, only JMX's start or a detach request can end the wait. */
    int waited = START_DELAY_MILLIS - START_QUIET_MILLIS;
    int asked = started_by == WAY_ATTACH ? java_side_asked() : await_asked_outside_jvm(waited);
    long scanned_before = __atomic_load_n(&classes_scanned, __ATOMIC_RELAXED);
    while (!asked && waited < START_DELAY_MAX_MILLIS) {
        asked = await_asked_outside_jvm(START_QUIET_MILLIS);
        waited += START_QUIET_MILLIS;
        long scanned = __atomic_load_n(&classes_scanned, __ATOMIC_RELAXED);
        if (scanned == scanned_before) {
            break;
        }
        scanned_before = scanned;
    }
    JavaVMAttachArgs thread = {JNI_VERSION_1_8, START_THREAD_NAME, NULL};
    JNIEnv *jni = NULL;
    if ((*start_vm)->AttachCurrentThreadAsDaemon(start_vm, (void **) &jni, &thread) != JNI_OK) {
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: the JVM refused the"
                " start thread\n");
        java_side_gone();
        return NULL;
    }
    if (!asked) {
        await_reads(jni);
    }
    (*jni)->ExceptionClear(jni);
    start_java_side(jni);
    (*start_vm)->DetachCurrentThread(start_vm);
    return NULL;
}

/*
 * Claims the JVM for this copy with its banner, as ActiveCopy.claim does, as soon as Java can be called: a -javaagent
 * copy that starts later then stands aside. Whether the claim holds; an error counts as a claim, since nothing else
 * could be active.
 */
static int claim_active_copy(JNIEnv *jni) {
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    jclass properties_class = (*jni)->FindClass(jni, "java/util/Properties");
    jmethodID get_properties = system == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, system, "getProperties", "()Ljava/util/Properties;");
    jmethodID put_if_absent = properties_class == NULL ? NULL : (*jni)->GetMethodID(jni, properties_class,
            "putIfAbsent", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
    jobject properties = get_properties == NULL ? NULL
            : (*jni)->CallStaticObjectMethod(jni, system, get_properties);
    jstring key = properties == NULL || put_if_absent == NULL ? NULL
            : (*jni)->NewStringUTF(jni, ACTIVE_COPY_PROPERTY);
    jstring claim = key == NULL ? NULL : (*jni)->NewStringUTF(jni, banner);
    jobject previous = claim == NULL ? NULL : (*jni)->CallObjectMethod(jni, properties, put_if_absent, key, claim);
    (*jni)->ExceptionClear(jni);
    return previous == NULL;
}

static void start_java_side_once(JNIEnv *jni) {
    if (__atomic_exchange_n(&java_side_started, 1, __ATOMIC_SEQ_CST)) {
        return;
    }
    pthread_attr_t attributes;
    pthread_t thread;
    int error = (*jni)->GetJavaVM(jni, &start_vm) != JNI_OK ? EINVAL : pthread_attr_init(&attributes);
    if (error == 0) {
        size_t stack = 0;
        error = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        if (error == 0 && pthread_attr_getstacksize(&attributes, &stack) == 0 && stack < START_THREAD_STACK_BYTES) {
            error = pthread_attr_setstacksize(&attributes, START_THREAD_STACK_BYTES);
        }
        error = error != 0 ? error : pthread_create(&thread, &attributes, delayed_start, NULL);
        pthread_attr_destroy(&attributes);
    }
    if (error != 0) {
        fprintf(stderr, "clock-agent: the ticker did not start, so reads take the direct clock: no thread for its"
                " start: %s\n", strerror(error));
        java_side_gone();
    }
}

/* How the operator names the entry in the lines that concern it alone. */
static const char *entry_name(entry_way way) {
    return way == WAY_ATTACH ? "JVMTI.agent_load" : "-agentpath";
}

/*
 * Once Java can be called and the hook is on: prints the banner and claims the JVM with it, or stands down if another
 * copy holds it, starts the Java side where it is wanted, and, but from premain, where no class in scope has loaded
 * yet, rewrites the classes in scope already loaded.
 */
static void take_the_jvm(jvmtiEnv *jvmti, JNIEnv *jni) {
    banner = make_banner();
    if (banner == NULL || !claim_active_copy(jni)) {
        __atomic_store_n(&state, COPY_STANDING_DOWN, __ATOMIC_SEQ_CST);
        (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
        say(banner == NULL ? "off, the service runs without it: out of memory"
                : started_by == WAY_AGENTPATH ? ALREADY_ACTIVE : JAVA_AGENT_ALREADY_ACTIVE);
        return;
    }
    say(banner);
    /*
     * Where verbose, report or dryRun asks for the Java side from the first class, it starts on this thread, before
     * main, as the Java entry's does: the report's shutdown hook is then in place however soon the service exits.
     */
    if (counts_sites && !__atomic_exchange_n(&java_side_started, 1, __ATOMIC_SEQ_CST)) {
        start_java_side(jni);
    }
    __atomic_store_n(&vm_initialized, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&java_side_wanted, __ATOMIC_SEQ_CST)) {
        start_java_side_once(jni);
    }
    /*
     * Attached, the MBean registers at once, as the Java agent's attach has it: JMX may have come alive long before,
     * and the class whose loading says so will not load again.
     */
    if (started_by == WAY_ATTACH && options.jmx) {
        java_side_needed(jni, &jmx_seen);
    }
    if (started_by != WAY_PREMAIN) {
        retransform_in_scope(jni);
    }
    if (options.native_filter == 0) {
        fprintf(stderr, "clock-agent: " NATIVE_FILTER_OFF_IGNORED "\n", entry_name(started_by));
    }
}

/*
 * The hook goes on here rather than as the JVM loads the library: with it on, the JVM reads again, to show it to the
 * hook, every class it takes from the class-data archive, and several hundred of those load before VMInit, none in
 * scope (1.1-1.4 ms of every start; benchmarks/README.md). What an application loader did load by now (a custom
 * system class loader, the classes of an agent given before this one) is retransformed, so rewritten all the same.
 */
static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread main_thread) {
    (void) main_thread;
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL)
            != JVMTI_ERROR_NONE) {
        __atomic_store_n(&state, COPY_STANDING_DOWN, __ATOMIC_SEQ_CST);
        say("off, the service runs without it: the JVM refused the class-load hook");
        return;
    }
    take_the_jvm(jvmti, jni);
}

/* The value of a system property given on the command line, or NULL; free it. */
static char *system_property(jvmtiEnv *jvmti, const char *key) {
    char *value = NULL;
    if ((*jvmti)->GetSystemProperty(jvmti, key, &value) != JVMTI_ERROR_NONE || value == NULL) {
        return NULL;
    }
    char *copy = strdup(value);
    (*jvmti)->Deallocate(jvmti, (unsigned char *) value);
    return copy;
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
 * Reads the three sources with the C grammar: 1 with `parsed` filled, or 0 with `*error` set (NULL if memory ran
 * short; free it). Either way `*strict` tells whether strict=true was asked for.
 */
static int read_options(const char *arguments, const char *property, agent_options *parsed, char **error,
                        int *strict) {
    const char *sources[SOURCE_COUNT] = {arguments, property, getenv(AGENT_OPTIONS_ENVIRONMENT_VARIABLE)};
    *error = NULL;
    *strict = 0;
    int good = parse_agent_options(sources, parsed, error, strict);
    if (good) {
        *strict = parsed->strict == 1;
    }
    return good;
}

/*
 * Whether enabled=false turned the agent off: then it says so, naming the source, in the one line it prints, and
 * gives the options up; nothing is hooked, defined, started or claimed, so the JVM is as without the agent.
 */
static int turned_off(agent_options *parsed) {
    const char *source = turned_off_by(parsed);
    if (source == NULL) {
        return 0;
    }
    fprintf(stderr, "clock-agent: " TURNED_OFF_FORMAT "\n", source);
    free_agent_options(parsed);
    return 1;
}

/*
 * Makes good options this copy's, with what the Java side needs to start from `jar`; or, where memory runs short for
 * the copy of the arguments, which the Java side reads again, gives them up with the jar and keeps nothing: a Java side
 * without them would run with other options than the banner's.
 */
static int adopt_options(agent_options *good, const char *arguments, char *jar, entry_way way) {
    char *copied = arguments == NULL ? NULL : strdup(arguments);
    if (arguments != NULL && copied == NULL) {
        free_agent_options(good);
        free(jar);
        return 0;
    }
    options = *good;
    agent_arguments = copied;
    jar_path = jar;
    started_by = way;
    counts_sites = options.verbose || options.dry_run || options.report != NULL;
    return 1;
}

/* Gives up what adopt_options kept, for a start that did not hook: the next start finds the library as it was. */
static void drop_options(void) {
    free_agent_options(&options);
    memset(&options, 0, sizeof options);
    free(agent_arguments);
    agent_arguments = NULL;
    free(jar_path);
    jar_path = NULL;
    counts_sites = 0;
}

/* clock-agent.jar in the folder of this library, or NULL if the library cannot tell where it is. */
static char *jar_beside_library(void) {
    Dl_info library;
    if (dladdr((void *) jar_beside_library, &library) == 0 || library.dli_fname == NULL) {
        return NULL;
    }
    const char *slash = strrchr(library.dli_fname, '/');
    size_t folder_length = slash == NULL ? 0 : (size_t) (slash - library.dli_fname) + 1;
    char *path = malloc(folder_length + sizeof(JAR_FILE_NAME) + 2);
    if (path != NULL) {
        snprintf(path, folder_length + sizeof(JAR_FILE_NAME) + 2, "%s%.*s%s", slash == NULL ? "./" : "",
                 (int) folder_length, library.dli_fname, JAR_FILE_NAME);
    }
    return path;
}

/*
 * Whether this Java is older than the agent supports, with why in `why`. The release as the -javaagent entry judges
 * it, by java.specification.version, where the command line sets it at the JVM's load (JDK 11 honours that);
 * otherwise by the VM's own, which has the same number, as java.specification.version is set only as Java starts.
 */
static int unsupported_java(jvmtiEnv *jvmti, char *why, size_t why_size) {
    const char *judged_by = "java.specification.version";
    char *specification = system_property(jvmti, judged_by);
    if (specification == NULL) {
        judged_by = "java.vm.specification.version";
        specification = system_property(jvmti, judged_by);
    }
    int feature = feature_of(specification);
    if (feature < 0) {
        snprintf(why, why_size, "cannot tell which Java this is (%s '%s'; %d or later is supported)", judged_by,
                 specification == NULL ? "null" : specification, OLDEST_SUPPORTED_FEATURE);
    } else if (feature < OLDEST_SUPPORTED_FEATURE) {
        snprintf(why, why_size, "Java %d is not supported (%d or later is)", feature, OLDEST_SUPPORTED_FEATURE);
    }
    free(specification);
    return feature < OLDEST_SUPPORTED_FEATURE;
}

/*
 * Whether a copy of the agent holds the JVM already (ActiveCopy.active), asked in the live phase before anything is
 * hooked, so that a start that finds one leaves this library as it was; one that claims the JVM between this and
 * take_the_jvm is found there. An error counts as none, as take_the_jvm's claim decides then.
 */
static int another_copy_active(JNIEnv *jni) {
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    jmethodID get_property = system == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, system, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    jstring key = get_property == NULL ? NULL : (*jni)->NewStringUTF(jni, ACTIVE_COPY_PROPERTY);
    jobject claim = key == NULL ? NULL : (*jni)->CallStaticObjectMethod(jni, system, get_property, key);
    int active = claim != NULL && !(*jni)->ExceptionCheck(jni);
    (*jni)->ExceptionClear(jni);
    return active;
}

/*
 * Asks for the hook in this environment: at the JVM's load, the VMInit event, which turns the hook on and takes the
 * JVM for this copy; in the live phase (premain, an attach), the hook at once. Whether the JVM granted it. The
 * capabilities are ones the JVM grants in the live phase too, as it does to an attached java.lang.instrument agent.
 */
static int start_hook(jvmtiEnv *jvmti, int at_load) {
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
    entry_jvmti = jvmti;
    __atomic_store_n(&state, COPY_HOOKED, __ATOMIC_SEQ_CST);
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE,
                                           at_load ? JVMTI_EVENT_VM_INIT : JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL)
            != JVMTI_ERROR_NONE) {
        __atomic_store_n(&state, COPY_IDLE, __ATOMIC_SEQ_CST);
        entry_jvmti = NULL;
        return 0;
    }
    return 1;
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

/*
 * Where the JVM will not have the hook: from premain, the Java start serves, as its transformer may still be granted
 * what the hook was not, with nothing said here; otherwise one line says why the agent is off.
 */
static entry_start cannot_hook(entry_way way, const char *why) {
    return way == WAY_PREMAIN ? ENTRY_FILTER_IN_JAVA : refuse(0, NULL, why);
}

/*
 * start_copy with this JVMTI environment, which it keeps only if it hooks. From premain, `given_property` is the
 * options' property as Java reads it and `given_jar` the agent jar; otherwise this reads the property from the JVM and
 * finds the jar beside the library.
 */
static entry_start start_in(jvmtiEnv *jvmti, JNIEnv *jni, entry_way way, const char *arguments,
                            const char *given_property, const char *given_jar) {
    char *own_property = way == WAY_PREMAIN ? NULL : system_property(jvmti, AGENT_OPTIONS_SYSTEM_PROPERTY);
    agent_options requested;
    char *error;
    int strict;
    int parsed = read_options(arguments, way == WAY_PREMAIN ? given_property : own_property, &requested, &error,
                              &strict);
    free(own_property);
    /* Before the Java floor, as the -javaagent entry: whatever else there is to say, the operator said off. */
    if (parsed && turned_off(&requested)) {
        return ENTRY_OFF;
    }
    /* strict=true stops a JVM at its start alone, as the Java agent's agentmain has it: never a service that runs. */
    strict = strict && way != WAY_ATTACH;
    char why[200];
    /* From premain, Java judged the release before it loaded this library. */
    if (way != WAY_PREMAIN && unsupported_java(jvmti, why, sizeof(why))) {
        free(error);
        if (parsed) {
            free_agent_options(&requested);
        }
        return refuse(strict, "unsupported Java", why);
    }
    if (!parsed) {
        error = explained(error, way, arguments);
        entry_start outcome = refuse(strict, "bad option", error != NULL ? error : "out of memory reading the options");
        free(error);
        return outcome;
    }
    if (requested.native_filter == 0 && way == WAY_PREMAIN) {
        free_agent_options(&requested);
        return ENTRY_FILTER_IN_JAVA;
    }
    copy_state now = __atomic_load_n(&state, __ATOMIC_SEQ_CST);
    if (now != COPY_IDLE || (jni != NULL && another_copy_active(jni))) {
        free_agent_options(&requested);
        say(now == COPY_DETACHED ? DETACHED_BEFORE : way == WAY_AGENTPATH ? ALREADY_ACTIVE : JAVA_AGENT_ALREADY_ACTIVE);
        return now == COPY_DETACHED ? ENTRY_REFUSED : ENTRY_OFF;
    }
    char *jar = way == WAY_PREMAIN ? strdup(given_jar) : jar_beside_library();
    if (way != WAY_PREMAIN && (jar == NULL || access(jar, R_OK) != 0)) {
        fprintf(stderr, "clock-agent: off, the service runs without it: %s needs %s, which holds the ticker, next to"
                " the library (java -jar clock-agent.jar agentpath writes the library there)\n", entry_name(way),
                jar != NULL ? jar : JAR_FILE_NAME);
        free(jar);
        free_agent_options(&requested);
        return ENTRY_REFUSED;
    }
    if (jar == NULL) {
        free_agent_options(&requested);
        return ENTRY_FILTER_IN_JAVA;
    }
    if (!adopt_options(&requested, arguments, jar, way)) {
        return refuse(0, NULL, "out of memory copying the options");
    }
    if (!start_hook(jvmti, way == WAY_AGENTPATH)) {
        drop_options();
        return cannot_hook(way, "the JVM refused the class-load hook");
    }
    if (way != WAY_AGENTPATH) {
        take_the_jvm(jvmti, jni);
    }
    return ENTRY_HOOKED;
}

/*
 * The one start of this library, whichever way it came in (`way`), as async-profiler's VM::init is for its entries:
 * the options from their three sources, the Java floor, the claim on this library and the jar that holds the Java
 * side, the hook; then, in the live phase, the claim on the JVM with the banner, and, attached, the rewrite of the
 * classes in scope already loaded (at the JVM's load, VMInit does those). `jni` is premain's; an attach takes its own.
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

entry_start start_for_java_agent(JNIEnv *jni, const char *arguments, const char *property, const char *jar) {
    JavaVM *vm;
    return (*jni)->GetJavaVM(jni, &vm) != JNI_OK ? ENTRY_FILTER_IN_JAVA
            : start_copy(vm, jni, WAY_PREMAIN, arguments, property, jar);
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
