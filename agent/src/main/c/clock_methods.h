/*
 * The clock methods a rewrite redirects besides the JDK's (ClockMethods.java): static methods of descriptor ()J that
 * return the epoch milliseconds, such as the library clocks of class_file_format.h, whose uses go to the cached
 * clock's currentTimeMillis.
 */
#ifndef CLOCK_AGENT_CLOCK_METHODS_H
#define CLOCK_AGENT_CLOCK_METHODS_H

#include <stddef.h>

/*
 * One, by its class's internal name and its own name; known_static where it is known to be static, as a library
 * clock's is, else a class's uses of it are redirected only where each is static (StaticUses.java).
 */
typedef struct {
    const char *owner;
    const char *name;
    int known_static;
} clock_method;

/*
 * Those in force: none, or some; and where any is not known to be static, the bits of those withdrawn as their class
 * loaded without such a method (bit i for the i-th, of the first 64), which a rewrite then leaves alone; else NULL.
 */
typedef struct {
    const clock_method *methods;
    size_t count;
    unsigned long long *withdrawn;
} clock_methods;

#endif
