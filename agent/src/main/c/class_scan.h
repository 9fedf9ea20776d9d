#ifndef CLOCK_AGENT_CLASS_SCAN_H
#define CLOCK_AGENT_CLASS_SCAN_H

#include <jni.h>

/*
 * Whether a class file's bytes hold the clock method's name anywhere. A class that reads the clock holds it in a
 * constant-pool Utf8 entry, so a "no" is final; a "yes" may come from any other string, and the rewriter decides.
 */
int names_clock_method(const unsigned char *bytes, jint length);

#endif
