#ifndef CLOCK_AGENT_CLASS_SCAN_H
#define CLOCK_AGENT_CLASS_SCAN_H

#include <jni.h>

#include "clock_methods.h"

/*
 * Whether a class file's bytes hold the clock method's name, java.time's package name or the simple name of a clock
 * method's class anywhere. A class that reads the clock holds one in a constant-pool Utf8 entry, so a "no" is final;
 * a "yes" may come from any other string (a java.time type in a signature, most often), and the rewriter decides.
 */
int names_clock_method(const unsigned char *bytes, jint length, const clock_methods *clocks);

#endif
