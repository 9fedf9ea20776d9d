/*
 * wallclock_counter: counts, per thread, the wall-clock reads a process makes, without changing what a read costs
 * beyond an increment of a counter of the reading thread's own.
 *
 * Preloaded (LD_PRELOAD=/path/libwallclockcounter.so), it takes the place of libc's clock_gettime, gettimeofday and
 * time, counts the call when it reads the wall clock (CLOCK_REALTIME, CLOCK_REALTIME_COARSE, gettimeofday, time), and
 * passes every call on to libc's own function, which the vDSO answers in user space as before. HotSpot reads the wall
 * clock through libc's clock_gettime(CLOCK_REALTIME) for System.currentTimeMillis() and for java.time's system clock.
 * Unlike integration-tests/src/test/c/slowclock.c it never turns a read into a system call: a service runs at its
 * usual speed, so what it reads per request is what it reads in production.
 *
 * Environment:
 *   WALLCLOCK_COUNTS=PATH   where the counts go. Nothing is counted without it. A poller thread (it reads no clock)
 *                           looks for PATH.request every 5 ms; a request's first word names a snapshot, written as
 *                           PATH.NAME (in full, then renamed, so a reader never sees half of it), and the request
 *                           file is removed once it is. At exit the counts go to PATH.exit. A snapshot has a line
 *                           per thread that has read the wall clock: "TID<TAB>READS<TAB>NAME", NAME being the
 *                           thread's name as the kernel holds it (its first 15 bytes; Java sets it as each thread
 *                           starts), taken when the thread first reads and again at each snapshot while it lives.
 *                           A snapshot taken before a window of requests and one after it give that window's reads.
 *   WALLCLOCK_SAMPLE_SKIP=P1,P2,...
 *                           thread-name prefixes that are never sampled (the JVM's own threads, the agent's ticker).
 * A request "NAME sample-every=N" also starts sampling (N=0 stops it): one in N wall-clock reads of the threads not
 * skipped, at most one at a time, appends the reading thread's id to PATH.samples, sends the process SIGQUIT and
 * holds the thread inside the read for SAMPLE_HOLD_MILLIS. HotSpot answers SIGQUIT with a thread dump on its stdout,
 * taken while the thread is held: the dump's stack of that thread (matched by its nid) names the Java code that read
 * the clock. A thread held in a native method (an interpreted currentTimeMillis(), java.time's
 * VM.getNanoTimeAdjustment) is dumped inside it; one held in JIT-compiled code (an intrinsic currentTimeMillis())
 * holds back the dump's safepoint and is dumped at its next safepoint poll, in the method that read or just after.
 *
 * The read path takes no lock and allocates nothing: each thread claims one slot of a fixed table the first time it
 * reads (an atomic increment), and keeps a pointer to it in initial-exec thread-local storage, which needs no
 * allocation either. libc's functions are looked up with dlsym, which may itself read the clock or allocate; a call
 * made while this thread is looking them up goes straight to the kernel instead, uncounted.
 *
 * Built by the coverage benchmark (BenchmarkFiles): gcc -shared -fPIC -O2 -pthread -o libwallclockcounter.so
 * wallclock_counter.c
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Far above the threads a service starts; a thread beyond it is counted in the last slot, named "(overflow)". */
#define MAX_THREADS 4096
#define NAME_BYTES 16
#define POLL_NANOS 5000000L
#define SAMPLE_HOLD_MILLIS 100
#define MAX_SKIPPED_PREFIXES 64

struct thread_reads {
    pid_t tid;
    /* Written by the thread itself at its first read, and by the poller at each snapshot while the thread lives. */
    char name[NAME_BYTES];
    unsigned long reads;
    /* 0 until the thread that owns the slot has filled tid and name; then 1. Release/acquire with the poller. */
    int ready;
    /* Whether this thread may be sampled, decided from its name at its first read. */
    int sampled;
};

typedef int (*clock_gettime_function)(clockid_t, struct timespec *);
typedef int (*gettimeofday_function)(struct timeval *restrict, void *restrict);
typedef time_t (*time_function)(time_t *);

static const char *counts_path;
static struct thread_reads slots[MAX_THREADS];
static unsigned int slots_claimed;
static __thread struct thread_reads *my_slot __attribute__((tls_model("initial-exec")));
static __thread int resolving __attribute__((tls_model("initial-exec")));

static clock_gettime_function real_clock_gettime;
static gettimeofday_function real_gettimeofday;
static time_function real_time;

static char skipped_prefixes[MAX_SKIPPED_PREFIXES][NAME_BYTES];
static int skipped_prefix_count;
/* One in this many reads of sampled threads is sampled; 0: no sampling. Set by the poller. */
static unsigned long sample_every;
static unsigned long sampled_thread_reads;
static int sample_in_flight;
static int samples_fd = -1;

static void resolve(void) {
    if (real_clock_gettime != NULL && real_gettimeofday != NULL && real_time != NULL) {
        return;
    }
    resolving = 1;
    real_clock_gettime = (clock_gettime_function) dlsym(RTLD_NEXT, "clock_gettime");
    real_gettimeofday = (gettimeofday_function) dlsym(RTLD_NEXT, "gettimeofday");
    real_time = (time_function) dlsym(RTLD_NEXT, "time");
    resolving = 0;
}

static int skipped_by_name(const char *name) {
    for (int i = 0; i < skipped_prefix_count; i++) {
        if (strncmp(name, skipped_prefixes[i], strlen(skipped_prefixes[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

static struct thread_reads *claim_slot(void) {
    unsigned int index = __atomic_fetch_add(&slots_claimed, 1, __ATOMIC_RELAXED);
    struct thread_reads *slot = &slots[index < MAX_THREADS ? index : MAX_THREADS - 1];
    if (index >= MAX_THREADS - 1) {
        /* The shared last slot: its count is incremented atomically below, by every thread that lands here. */
        if (index == MAX_THREADS - 1) {
            slot->tid = 0;
            strcpy(slot->name, "(overflow)");
            __atomic_store_n(&slot->ready, 1, __ATOMIC_RELEASE);
        }
        return slot;
    }
    slot->tid = (pid_t) syscall(SYS_gettid);
    prctl(PR_GET_NAME, slot->name, 0, 0, 0);
    slot->sampled = !skipped_by_name(slot->name);
    __atomic_store_n(&slot->ready, 1, __ATOMIC_RELEASE);
    return slot;
}

/* Holds this thread inside its read while the JVM dumps every thread's stack; see the header. */
static void sample(struct thread_reads *slot) {
    int idle = 0;
    if (!__atomic_compare_exchange_n(&sample_in_flight, &idle, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        return;
    }
    char line[32];
    int length = snprintf(line, sizeof line, "%d\n", (int) slot->tid);
    if (write(samples_fd, line, (size_t) length) == length) {
        kill(getpid(), SIGQUIT);
        struct timespec hold = {0, SAMPLE_HOLD_MILLIS * 1000000L};
        nanosleep(&hold, NULL);
    }
    __atomic_store_n(&sample_in_flight, 0, __ATOMIC_RELEASE);
}

static void count_read(void) {
    if (counts_path == NULL) {
        return;
    }
    struct thread_reads *slot = my_slot;
    if (slot == NULL) {
        slot = claim_slot();
        my_slot = slot;
    }
    if (slot == &slots[MAX_THREADS - 1]) {
        __atomic_fetch_add(&slot->reads, 1, __ATOMIC_RELAXED);
        return;
    }
    /* One writer, the thread itself; a relaxed store lets the poller read a whole value. */
    __atomic_store_n(&slot->reads, slot->reads + 1, __ATOMIC_RELAXED);
    unsigned long every = __atomic_load_n(&sample_every, __ATOMIC_ACQUIRE);
    if (every != 0 && slot->sampled
            && __atomic_add_fetch(&sampled_thread_reads, 1, __ATOMIC_RELAXED) % every == 0) {
        sample(slot);
    }
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    if (resolving) {
        return (int) syscall(SYS_clock_gettime, clock, now);
    }
    resolve();
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) {
        count_read();
    }
    return real_clock_gettime(clock, now);
}

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    if (resolving) {
        return (int) syscall(SYS_gettimeofday, now, zone);
    }
    resolve();
    count_read();
    return real_gettimeofday(now, zone);
}

time_t time(time_t *now) {
    if (resolving) {
        struct timespec real;
        syscall(SYS_clock_gettime, CLOCK_REALTIME, &real);
        if (now != NULL) {
            *now = real.tv_sec;
        }
        return real.tv_sec;
    }
    resolve();
    count_read();
    return real_time(now);
}

/* The name the kernel holds now for a live thread of this process; the old one stays if the thread has ended. */
static void refresh_name(struct thread_reads *slot) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int) slot->tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    char name[NAME_BYTES];
    ssize_t length = read(fd, name, sizeof name - 1);
    close(fd);
    if (length > 0) {
        name[length] = '\0';
        name[strcspn(name, "\n")] = '\0';
        memcpy(slot->name, name, sizeof name);
    }
}

static void write_snapshot(const char *snapshot, int refresh) {
    char final_path[4096];
    char partial_path[4096];
    snprintf(final_path, sizeof final_path, "%s.%s", counts_path, snapshot);
    snprintf(partial_path, sizeof partial_path, "%s.%s.partial", counts_path, snapshot);
    FILE *out = fopen(partial_path, "w");
    if (out == NULL) {
        return;
    }
    unsigned int claimed = __atomic_load_n(&slots_claimed, __ATOMIC_RELAXED);
    for (unsigned int i = 0; i < claimed && i < MAX_THREADS; i++) {
        struct thread_reads *slot = &slots[i];
        if (!__atomic_load_n(&slot->ready, __ATOMIC_ACQUIRE)) {
            continue;
        }
        if (refresh && slot->tid != 0) {
            refresh_name(slot);
        }
        fprintf(out, "%d\t%lu\t%s\n", (int) slot->tid, __atomic_load_n(&slot->reads, __ATOMIC_RELAXED), slot->name);
    }
    fclose(out);
    rename(partial_path, final_path);
}

/* "NAME" or "NAME sample-every=N": takes the snapshot, then applies the sampling period. */
static void serve_request(const char *request_path) {
    FILE *in = fopen(request_path, "r");
    if (in == NULL) {
        return;
    }
    char snapshot[256] = "";
    unsigned long every = 0;
    int fields = fscanf(in, "%255s sample-every=%lu", snapshot, &every);
    fclose(in);
    if (fields >= 1) {
        write_snapshot(snapshot, 1);
    }
    if (fields == 2) {
        if (every != 0 && samples_fd < 0) {
            char samples_path[4096];
            snprintf(samples_path, sizeof samples_path, "%s.samples", counts_path);
            samples_fd = open(samples_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        }
        /* Release: a reader that sees the period sees the samples file open. */
        __atomic_store_n(&sample_every, samples_fd < 0 ? 0 : every, __ATOMIC_RELEASE);
    }
    unlink(request_path);
}

static void *poll_requests(void *unused) {
    (void) unused;
    prctl(PR_SET_NAME, "wallclock-poll", 0, 0, 0);
    char request_path[4096];
    snprintf(request_path, sizeof request_path, "%s.request", counts_path);
    for (;;) {
        struct timespec pause = {0, POLL_NANOS};
        nanosleep(&pause, NULL);
        if (access(request_path, F_OK) == 0) {
            serve_request(request_path);
        }
    }
    return NULL;
}

static void read_skipped_prefixes(void) {
    const char *list = getenv("WALLCLOCK_SAMPLE_SKIP");
    while (list != NULL && *list != '\0' && skipped_prefix_count < MAX_SKIPPED_PREFIXES) {
        size_t length = strcspn(list, ",");
        if (length > 0 && length < NAME_BYTES) {
            memcpy(skipped_prefixes[skipped_prefix_count], list, length);
            skipped_prefixes[skipped_prefix_count++][length] = '\0';
        }
        list += length + (list[length] == ',' ? 1 : 0);
    }
}

__attribute__((constructor)) static void start_counting(void) {
    resolve();
    const char *path = getenv("WALLCLOCK_COUNTS");
    if (path == NULL || *path == '\0') {
        return;
    }
    read_skipped_prefixes();
    counts_path = path;
    pthread_t poller;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_create(&poller, &attributes, poll_requests, NULL);
    pthread_attr_destroy(&attributes);
}

__attribute__((destructor)) static void write_exit_counts(void) {
    if (counts_path != NULL) {
        write_snapshot("exit", 1);
    }
}
