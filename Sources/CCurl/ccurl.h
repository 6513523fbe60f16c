// libcurl for the fetcher's HTTP transport (Linux), plus the few process calls Swift cannot make
// itself. curl_easy_setopt, curl_easy_getinfo and prctl are variadic, which Swift does not
// import: each use gets a typed inline wrapper here. The toolchain's own FoundationNetworking
// is built on the same system libcurl (Debian: libcurl4; headers: libcurl4-openssl-dev).
#ifndef ELBOWROOM_CCURL_H
#define ELBOWROOM_CCURL_H

#include <curl/curl.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/fsuid.h>
#endif

typedef size_t (*elbowroom_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*elbowroom_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                                curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode elbowroom_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_data_callback(CURL *handle, CURLoption option,
                                                        elbowroom_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode elbowroom_curl_set_progress_callback(CURL *handle, elbowroom_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode elbowroom_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

/// Makes this process non-dumpable: no core file (which would hold both tokens) and no ptrace or
/// /proc/PID/mem reads by other processes of the same user. 0 on success; -1 where there is no
/// such call.
static inline int elbowroom_set_not_dumpable(void) {
#ifdef __linux__
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#else
    return -1;
#endif
}

/// Linux: the file-system user and group this thread acts as (`setfsuid(2)`), so that root
/// writing a user's credentials has exactly that user's rights. Returns the previous id; -1 where
/// there is no such call.
static inline int elbowroom_setfsuid(unsigned int uid) {
#ifdef __linux__
    return setfsuid(uid);
#else
    return -1;
#endif
}
static inline int elbowroom_setfsgid(unsigned int gid) {
#ifdef __linux__
    return setfsgid(gid);
#else
    return -1;
#endif
}

#endif
