/* TEMPORARY hand copy; to be generated from the Java classes by build.sh. */
#ifndef CLOCK_AGENT_JAVA_CONTRACT_H
#define CLOCK_AGENT_JAVA_CONTRACT_H
#define JAVA_ENTRY_CLASS "io.clockagent.agent.internal.nativeentry.NativeEntry"
#define JAVA_ENTRY_START_NAME "start"
#define JAVA_ENTRY_START_DESCRIPTOR "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;"
#define JAVA_COUNTS_CLASS "io.clockagent.agent.internal.nativefilter.LibraryCalls"
#define JAVA_CLASSES_SCANNED_NAME "classesScanned"
#define JAVA_CLASSES_SCANNED_DESCRIPTOR "()J"
#define JAVA_CLASSES_REWRITTEN_NAME "classesRewritten"
#define JAVA_CLASSES_REWRITTEN_DESCRIPTOR "()J"
#define JAVA_RESTORE_CLASS "io.clockagent.agent.internal.nativeentry.EntryCalls"
#define JAVA_RESTORE_CLASSES_NAME "restoreClasses"
#define JAVA_RESTORE_CLASSES_DESCRIPTOR "()I"
#define JAVA_CLOCK_DEFINED_NAME "clockDefined"
#define JAVA_CLOCK_DEFINED_DESCRIPTOR "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandles$Lookup;)V"
#define JAVA_REWROTE_NATIVELY_NAME "rewroteNatively"
#define JAVA_REWROTE_NATIVELY_DESCRIPTOR "(Ljava/lang/String;[B)V"
#define JAVA_LEFT_INSTANT_READS_NAME "leftInstantReadsNatively"
#define JAVA_LEFT_INSTANT_READS_DESCRIPTOR "(Ljava/lang/String;[B)V"
#define JAVA_JMX_STARTING_NAME "jmxStarting"
#define JAVA_JMX_STARTING_DESCRIPTOR "()V"
#define JAVA_DETACH_REQUESTED_NAME "detachRequested"
#define JAVA_DETACH_REQUESTED_DESCRIPTOR "()V"
#define JAVA_CLOCK_WRITE_ACCESS_NAME "writeAccess"
#define JAVA_CLOCK_WRITE_ACCESS_DESCRIPTOR "()Ljava/lang/invoke/MethodHandles$Lookup;"
#define JAVA_DIRECT_READS_NAME "DIRECT_READS"
#define JAVA_DIRECT_READS_DESCRIPTOR "[J"
#define JAVA_DETACH_SIGNAL_INTERNAL_NAME "io/clockagent/agent/internal/activecopy/DetachSignal"
#define JAVA_DETACHING_LOADER_SIGNATURE "Lio/clockagent/agent/AgentClassLoader;"
#define JAVA_MBEAN_SERVER_INTERNAL_NAME "com/sun/jmx/mbeanserver/JmxMBeanServer"
#define JAVA_ACTIVE_COPY_PROPERTY "clockagent.active"
#define JAVA_ALREADY_ACTIVE "already active in this JVM; this copy does nothing"
#define JAVA_OLDEST_SUPPORTED_FEATURE 11
#define JAVA_RETRANSFORM_BATCH_SIZE 64
#define JAVA_JAR_FILE_NAME "clock-agent.jar"
#define JAVA_NATIVE_START_NAME "start"
#define JAVA_NATIVE_START_DESCRIPTOR "([B[B[BZ)I"
#define JAVA_START_HOOKED 0
#define JAVA_START_OFF 1
#define JAVA_START_STOP_JVM 2
#define JAVA_START_IN_JAVA 3
#define JAVA_START_REFUSED 4
#endif
