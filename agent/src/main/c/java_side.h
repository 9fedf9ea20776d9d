#ifndef CLOCK_AGENT_JAVA_SIDE_H
#define CLOCK_AGENT_JAVA_SIDE_H

#include <jni.h>

/* What the Java side acts on, told once each as soon as it serves. */
typedef enum {
    /* The clock is defined: the Java side starts its ticker on it. */
    NEWS_CLOCK_DEFINED = 1,
    /* The JDK's MBean server class loaded: JMX is starting, and the Java side registers the MBean. */
    NEWS_JMX_STARTING = 2,
    /* Another copy of the agent asks this one to detach. */
    NEWS_DETACH_REQUESTED = 4
} java_side_news_kind;

/* The clock is defined, as `clock`: the Java side is told, starting for it if need be. */
void java_side_clock_defined(JNIEnv *jni, jclass clock);

/* Something the Java side acts on happened: it is told now, or as it starts, which this asks for. */
void java_side_news(JNIEnv *jni, java_side_news_kind news);

/*
 * Shows the Java side, now or once it starts, a class rewritten here (`rewritten`), or left with reads of instants
 * direct, with its original bytes, for the sites it counts; only while sites are counted.
 */
void java_side_show(JNIEnv *jni, const char *name, jint length, const unsigned char *bytes, int rewritten);

/*
 * The JVM is this copy's: where sites are counted, the Java side starts now, on this thread, before main, as the Java
 * entry's does, so that the report's shutdown hook is in place however soon the service exits; otherwise its start
 * thread starts once something asks for it.
 */
void java_side_jvm_taken(JNIEnv *jni);

#endif
