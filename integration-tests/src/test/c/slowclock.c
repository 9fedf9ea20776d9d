/*
 * slowclock: makes reading the clock in one process cost a system call, as it does on hosts whose clocksource has no
 * vDSO fast path (hpet, acpi_pm, Xen), without switching the kernel clocksource, which needs root and slows every
 * process on the machine.
 *
 * Preloaded (LD_PRELOAD=/path/libslowclock.so), it takes the place of libc's clock_gettime, gettimeofday and time,
 * which the vDSO would otherwise answer in user space, and sends each call to the kernel instead. HotSpot reads the
 * wall clock through libc's clock_gettime, from the interpreter and from JIT-compiled code alike, so every
 * System.currentTimeMillis() in the process pays a real system call.
 *
 * With SLOWCLOCK_COUNTS=/path/file in the environment it also counts the calls and writes the counts to that file
 * when the process exits, so a test can see that the reads went through here. Without it, nothing is counted and
 * no shared counter is written on the read path.
 *
 * Built by the integration tests: gcc -shared -fPIC -O2 -o libslowclock.so slowclock.c
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char *counts_file;
static unsigned long realtime_calls;
static unsigned long other_clock_calls;
static unsigned long gettimeofday_calls;
static unsigned long time_calls;

static void count(unsigned long *calls) {
    if (counts_file != NULL) {
        __atomic_fetch_add(calls, 1, __ATOMIC_RELAXED);
    }
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    count(clock == CLOCK_REALTIME ? &realtime_calls : &other_clock_calls);
    return (int) syscall(SYS_clock_gettime, clock, now);
}

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    count(&gettimeofday_calls);
    return (int) syscall(SYS_gettimeofday, now, zone);
}

time_t time(time_t *now) {
    count(&time_calls);
#ifdef SYS_time
    return (time_t) syscall(SYS_time, now);
#else
    /* arm64 and other newer ABIs have no time system call; the kernel's answer comes from clock_gettime there. */
    struct timespec real;
    if (syscall(SYS_clock_gettime, CLOCK_REALTIME, &real) != 0) {
        return (time_t) -1;
    }
    if (now != NULL) {
        *now = real.tv_sec;
    }
    return real.tv_sec;
#endif
}

__attribute__((constructor)) static void start_counting(void) {
    counts_file = getenv("SLOWCLOCK_COUNTS");
}

__attribute__((destructor)) static void write_counts(void) {
    if (counts_file == NULL) {
        return;
    }
    FILE *out = fopen(counts_file, "w");
    if (out != NULL) {
        fprintf(out, "clock_gettime_realtime=%lu clock_gettime_other=%lu gettimeofday=%lu time=%lu\n",
                __atomic_load_n(&realtime_calls, __ATOMIC_RELAXED),
                __atomic_load_n(&other_clock_calls, __ATOMIC_RELAXED),
                __atomic_load_n(&gettimeofday_calls, __ATOMIC_RELAXED),
                __atomic_load_n(&time_calls, __ATOMIC_RELAXED));
        fclose(out);
    }
}
