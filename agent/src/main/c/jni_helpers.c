/*
 * JNI helpers: the handful of calls into Java that every part of the library makes the same way (an exception as a
 * line, a static call, a class in a given loader, a string of UTF-8, a system property). Each returns NULL, or 0, with
 * the exception pending or cleared as it says, so a caller can chain steps that run only while the one before worked.
 * It knows nothing of the agent.
 *
 * May include: jni_helpers.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jni_helpers.h"

void say(const char *line) {
    fprintf(stderr, "clock-agent: %s\n", line);
    fflush(stderr);
}

const char *take_exception(JNIEnv *jni, const char *otherwise, char line[EXCEPTION_LINE_SIZE]) {
    snprintf(line, EXCEPTION_LINE_SIZE, "%s", otherwise);
    jthrowable failure = (*jni)->ExceptionOccurred(jni);
    if (failure == NULL) {
        return line;
    }
    (*jni)->ExceptionClear(jni);
    jclass object_class = (*jni)->FindClass(jni, "java/lang/Object");
    jmethodID to_string = object_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, object_class, "toString", "()Ljava/lang/String;");
    /* toString may throw in its turn. */
    jstring text = to_string == NULL ? NULL : checked(jni, (*jni)->CallObjectMethod(jni, failure, to_string));
    const char *chars = text == NULL ? NULL : (*jni)->GetStringUTFChars(jni, text, NULL);
    if (chars != NULL) {
        snprintf(line, EXCEPTION_LINE_SIZE, "%s", chars);
        (*jni)->ReleaseStringUTFChars(jni, text, chars);
    }
    (*jni)->ExceptionClear(jni);
    (*jni)->DeleteLocalRef(jni, text);
    (*jni)->DeleteLocalRef(jni, object_class);
    (*jni)->DeleteLocalRef(jni, failure);
    return line;
}

jobject checked(JNIEnv *jni, jobject returned) {
    if ((*jni)->ExceptionCheck(jni)) {
        (*jni)->DeleteLocalRef(jni, returned);
        return NULL;
    }
    return returned;
}

jobject call_static(JNIEnv *jni, jclass owner, const char *method, const char *descriptor, jobject argument) {
    jmethodID id = owner == NULL ? NULL : (*jni)->GetStaticMethodID(jni, owner, method, descriptor);
    return id == NULL ? NULL : checked(jni, (*jni)->CallStaticObjectMethod(jni, owner, id, argument));
}

jclass class_in(JNIEnv *jni, jobject loader, const char *binary_name, jboolean initialize) {
    jclass class_class = (*jni)->FindClass(jni, "java/lang/Class");
    jmethodID for_name = class_class == NULL ? NULL : (*jni)->GetStaticMethodID(jni, class_class, "forName",
            "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
    jstring java_name = for_name == NULL ? NULL : (*jni)->NewStringUTF(jni, binary_name);
    return java_name == NULL ? NULL
            : checked(jni, (*jni)->CallStaticObjectMethod(jni, class_class, for_name, java_name, initialize, loader));
}

int loader_is(jvmtiEnv *jvmti, JNIEnv *jni, jobject loader, const char *loader_signature) {
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

jstring java_string(JNIEnv *jni, const char *utf8) {
    if (utf8 == NULL) {
        return NULL;
    }
    jsize length = (jsize) strlen(utf8);
    jclass string_class = (*jni)->FindClass(jni, "java/lang/String");
    jmethodID decoding = string_class == NULL ? NULL
            : (*jni)->GetMethodID(jni, string_class, "<init>", "([BLjava/lang/String;)V");
    jstring charset = decoding == NULL ? NULL : (*jni)->NewStringUTF(jni, "UTF-8");
    jbyteArray bytes = charset == NULL ? NULL : (*jni)->NewByteArray(jni, length);
    if (bytes == NULL) {
        return NULL;
    }
    (*jni)->SetByteArrayRegion(jni, bytes, 0, length, (const jbyte *) utf8);
    jstring text = checked(jni, (*jni)->NewObject(jni, string_class, decoding, bytes, charset));
    (*jni)->DeleteLocalRef(jni, bytes);
    (*jni)->DeleteLocalRef(jni, charset);
    return text;
}

int java_property_set(JNIEnv *jni, const char *key) {
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    jmethodID get_property = system == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, system, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    jstring java_key = get_property == NULL ? NULL : (*jni)->NewStringUTF(jni, key);
    jobject value = java_key == NULL ? NULL
            : checked(jni, (*jni)->CallStaticObjectMethod(jni, system, get_property, java_key));
    int set = value != NULL;
    (*jni)->ExceptionClear(jni);
    (*jni)->DeleteLocalRef(jni, value);
    (*jni)->DeleteLocalRef(jni, java_key);
    (*jni)->DeleteLocalRef(jni, system);
    return set;
}

property_claim java_property_claim(JNIEnv *jni, const char *key, const char *value, char why[EXCEPTION_LINE_SIZE]) {
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    jclass properties_class = system == NULL ? NULL : (*jni)->FindClass(jni, "java/util/Properties");
    jmethodID get_properties = properties_class == NULL ? NULL
            : (*jni)->GetStaticMethodID(jni, system, "getProperties", "()Ljava/util/Properties;");
    jmethodID put_if_absent = get_properties == NULL ? NULL : (*jni)->GetMethodID(jni, properties_class,
            "putIfAbsent", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
    jobject properties = put_if_absent == NULL ? NULL
            : checked(jni, (*jni)->CallStaticObjectMethod(jni, system, get_properties));
    jstring java_key = properties == NULL ? NULL : (*jni)->NewStringUTF(jni, key);
    jstring java_value = java_key == NULL ? NULL : java_string(jni, value);
    jobject previous = java_value == NULL ? NULL
            : checked(jni, (*jni)->CallObjectMethod(jni, properties, put_if_absent, java_key, java_value));
    property_claim claim = java_value == NULL || (*jni)->ExceptionCheck(jni) ? PROPERTY_UNCLAIMABLE
            : previous == NULL ? PROPERTY_CLAIMED : PROPERTY_HELD;
    if (claim == PROPERTY_UNCLAIMABLE) {
        take_exception(jni, "out of memory", why);
    }
    (*jni)->DeleteLocalRef(jni, previous);
    (*jni)->DeleteLocalRef(jni, java_value);
    (*jni)->DeleteLocalRef(jni, java_key);
    (*jni)->DeleteLocalRef(jni, properties);
    (*jni)->DeleteLocalRef(jni, properties_class);
    (*jni)->DeleteLocalRef(jni, system);
    return claim;
}
