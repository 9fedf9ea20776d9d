/*
 * The clock methods a rewrite redirects besides the JDK's (ClockMethods.java): static methods of descriptor ()J that
 * return the epoch milliseconds, such as the library clocks of class_file_format.h, whose uses go to the cached
 * clock's currentTimeMillis.
 */
#ifndef CLOCK_AGENT_CLOCK_METHODS_H
#define CLOCK_AGENT_CLOCK_METHODS_H

#include <stddef.h>

/* One, by its class's internal name and its own name. */
typedef struct {
    const char *owner;
    const char *name;
} clock_method;

/* Those in force: none, or some. */
typedef struct {
    const clock_method *methods;
    size_t count;
} clock_methods;

#endif
