// elbowroom-http: one HTTP exchange through the system libcurl, for elbowroom's fetcher (Linux).
//
// Why a program of its own: elbowroom is one static executable (the renderer runs on every
// prompt, and a static program starts fastest), and a static program cannot load a shared
// library. libcurl is the system's HTTP stack (the toolchain's own URLSession wraps it), with
// the system's TLS, CA store and proxy rules, so the fetcher hands each request to this small
// program, which is linked against it, over a pipe (`HelperTransport` on the Swift side).
//
// It is mechanics only; every decision is the caller's: which headers go (`Accept-Encoding:
// identity`, no `Expect`), whether a proxy may see the request, the caps and the deadline. What
// this program guarantees, whatever a server sends:
// - bytes are counted as they arrive: past `header_limit` or `body_limit` the transfer stops;
// - one hard deadline for the whole exchange (CURLOPT_TIMEOUT_MS, and a progress check against
//   a monotonic clock as well), however slowly a server trickles;
// - no redirects followed (the 3xx is the answer), http and https only, no cookies, no netrc,
//   nothing decoded (a compressed body stays the bytes it was);
// - it is not dumpable (it holds a token), and it dies with its parent;
// - SIGTERM, SIGINT and SIGHUP do not cut an exchange short (the fetcher decides when to go).
//
// The request arrives on stdin, never in argv or the environment (it carries the token):
//
//   elbowroom-http 1\n
//   METHOD\n URL\n TIMEOUT_MS\n BODY_LIMIT\n HEADER_LIMIT\n NO_PROXY(0|1)\n HEADER_COUNT\n
//   HEADER_COUNT lines "Name: value\n"
//   BODY_LENGTH\n (-1: no body) then that many bytes
//
// The answer goes to stdout:
//
//   elbowroom-http 1\n
//   OUTCOME CURLCODE STATUS SAW_STATUS_LINE HEADERS_COMPLETE\n
//   HEADER_LENGTH\n then the answer's header lines (CRLF kept, its status line left out)
//   BODY_LENGTH\n then the body
//
// OUTCOME is one word: ok, timeout, oversized, connect, resolve, resolve-proxy, closed, not-http,
// tls, headers-too-large, memory, setup (an option libcurl refused), or other. Exit status 0 when
// an answer was written (whatever it says), 2 for a request it could not read.
#include <curl/curl.h>
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define PROTOCOL_LINE "elbowroom-http 1"
// A usage or token request is a few hundred bytes; a body past this is not one of them.
#define REQUEST_LIMIT (4 << 20)

struct buffer {
    char *data;
    size_t length, capacity;
};

static int append(struct buffer *buffer, const char *bytes, size_t count) {
    if (count > SIZE_MAX - buffer->length - 1) return 0;
    if (buffer->length + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (capacity < buffer->length + count + 1) capacity *= 2;
        char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    if (count) memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
    buffer->data[buffer->length] = 0;
    return 1;
}

static double monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// What one exchange collected; libcurl calls back into it from curl_easy_perform.
struct exchange {
    struct buffer headers;  // the current header set, status line left out
    struct buffer body;
    size_t header_bytes, header_limit, body_limit;
    int saw_status_line;
    // The blank line that ends a header block arrived: libcurl reports a connection closed in
    // the middle of the headers as a finished transfer, and this tells the two apart.
    int headers_complete;
    int oversized;
    int out_of_memory;
    double deadline;
};

/// One header line, CRLF included. A status line starts a new set: an interim `100 Continue`
/// or a proxy's `200 Connection established` is not the answer's.
static size_t on_header(char *data, size_t size, size_t count, void *context) {
    struct exchange *exchange = context;
    if (count && size > SIZE_MAX / count) return 0;
    size_t total = size * count;
    exchange->header_bytes += total;
    if (exchange->header_bytes > exchange->header_limit) return 0;
    size_t content = total;
    while (content && (data[content - 1] == '\n' || data[content - 1] == '\r')) content--;
    if (content >= 5 && memcmp(data, "HTTP/", 5) == 0) {
        exchange->saw_status_line = 1;
        exchange->headers_complete = 0;
        exchange->headers.length = 0;
        return total;
    }
    if (content == 0) {
        exchange->headers_complete = exchange->saw_status_line;
        return total;
    }
    if (!append(&exchange->headers, data, total)) {
        exchange->out_of_memory = 1;
        return 0;
    }
    return total;
}

/// Returning anything but the byte count stops the transfer.
static size_t on_body(char *data, size_t size, size_t count, void *context) {
    struct exchange *exchange = context;
    if (count && size > SIZE_MAX / count) return 0;
    size_t total = size * count;
    if (total > exchange->body_limit || exchange->body.length > exchange->body_limit - total) {
        exchange->oversized = 1;
        return 0;
    }
    if (!append(&exchange->body, data, total)) {
        exchange->out_of_memory = 1;
        return 0;
    }
    return total;
}

/// Past the deadline the transfer stops, whatever libcurl's own timers think.
static int on_progress(void *context, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a; (void)b; (void)c; (void)d;
    struct exchange *exchange = context;
    return monotonic_now() > exchange->deadline + 0.5 ? 1 : 0;
}

/// The next line of the request, NUL-terminated in place; NULL at the end or on a line with a
/// NUL in it (a URL or header that would be cut short).
static char *next_line(char **cursor, char *end) {
    char *start = *cursor;
    char *newline = memchr(start, '\n', (size_t)(end - start));
    if (!newline) return NULL;
    *newline = 0;
    *cursor = newline + 1;
    if (strlen(start) != (size_t)(newline - start)) return NULL;
    return start;
}

static int parse_number(const char *text, long long minimum, long long maximum, long long *value) {
    if (!text || !*text) return 0;
    char *end = NULL;
    errno = 0;
    long long parsed = strtoll(text, &end, 10);
    if (errno || *end || parsed < minimum || parsed > maximum) return 0;
    *value = parsed;
    return 1;
}

/// http and https only, whatever a URL or a proxy says: CURLOPT_PROTOCOLS_STR from libcurl 7.85,
/// the bit mask before it (Ubuntu 22.04 has 7.81); a library older than its headers gets the
/// bit mask too.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static CURLcode allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code != CURLE_UNKNOWN_OPTION) return code;
#endif
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
}
#pragma GCC diagnostic pop

static const char *outcome(CURLcode code, const struct exchange *exchange) {
    if (exchange->out_of_memory) return "memory";
    if (exchange->oversized) return "oversized";
    switch (code) {
    case CURLE_OK: return "ok";
    case CURLE_FILESIZE_EXCEEDED: return "oversized";
    case CURLE_OPERATION_TIMEDOUT: case CURLE_ABORTED_BY_CALLBACK: return "timeout";
    case CURLE_COULDNT_CONNECT: return "connect";
    case CURLE_COULDNT_RESOLVE_HOST: return "resolve";
    case CURLE_COULDNT_RESOLVE_PROXY: return "resolve-proxy";
    case CURLE_GOT_NOTHING: case CURLE_RECV_ERROR: case CURLE_SEND_ERROR: case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2: case CURLE_HTTP2_STREAM:
        return "closed";
    case CURLE_WEIRD_SERVER_REPLY: case CURLE_UNSUPPORTED_PROTOCOL: case CURLE_BAD_CONTENT_ENCODING:
        return "not-http";
    case CURLE_SSL_CONNECT_ERROR: case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER: case CURLE_SSL_CACERT_BADFILE: case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
        return "tls";
    case CURLE_WRITE_ERROR: return "headers-too-large";  // the body's cap is `oversized`, above
    case CURLE_OUT_OF_MEMORY: return "memory";
    default: return "other";
    }
}

static int write_all(const char *bytes, size_t count) {
    while (count) {
        ssize_t written = write(1, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return 0;
        bytes += written;
        count -= (size_t)written;
    }
    return 1;
}

static int answer(const char *word, CURLcode code, long status, const struct exchange *exchange) {
    char head[256];
    int length = snprintf(head, sizeof head, "%s\n%s %d %ld %d %d\n%zu\n", PROTOCOL_LINE, word, (int)code,
                          status, exchange->saw_status_line, exchange->headers_complete, exchange->headers.length);
    if (length < 0 || (size_t)length >= sizeof head) return 0;
    if (!write_all(head, (size_t)length) || !write_all(exchange->headers.data ? exchange->headers.data : "", exchange->headers.length)) return 0;
    length = snprintf(head, sizeof head, "%zu\n", exchange->body.length);
    return write_all(head, (size_t)length) && write_all(exchange->body.data ? exchange->body.data : "", exchange->body.length);
}

static int refuse(const char *why) {
    fprintf(stderr, "elbowroom-http: %s\n", why);
    return 2;
}

int main(int argc, char **argv) {
#ifdef __linux__
    // No core file and no ptrace: this process holds a token. It ends with the fetcher that
    // started it (killed mid-fetch, say) instead of running to its timeout on its own.
    // (A parent gone before this line closed the request's pipe: the read below ends at once.)
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#endif
    // SIGTERM, SIGINT and SIGHUP wait, as they do in the fetcher while it refreshes a token: a
    // token request cut off after it reached the server spends the refresh token with no new one
    // saved (systemd stopping `elbowroom serve` signals every process of the service). This
    // program still ends with its parent (above), and at its deadline.
    sigset_t termination;
    sigemptyset(&termination);
    sigaddset(&termination, SIGTERM);
    sigaddset(&termination, SIGINT);
    sigaddset(&termination, SIGHUP);
    sigprocmask(SIG_BLOCK, &termination, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        // `elbowroom doctor` runs this to see that the program and libcurl load.
        printf("%s %s\n", PROTOCOL_LINE, curl_version());
        return 0;
    }
    if (argc != 1) return refuse("reads one request on stdin (it is elbowroom's; elbowroom-fetch runs it)");

    struct buffer input = {0};
    char chunk[16384];
    for (;;) {
        ssize_t got = read(0, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return refuse("cannot read the request");
        if (got == 0) break;
        if (input.length + (size_t)got > REQUEST_LIMIT) return refuse("the request is too large");
        if (!append(&input, chunk, (size_t)got)) return refuse("out of memory");
    }
    memset(chunk, 0, sizeof chunk);
    if (!input.data) return refuse("no request");
    char *cursor = input.data, *end = input.data + input.length;
    const char *magic = next_line(&cursor, end);
    if (!magic || strcmp(magic, PROTOCOL_LINE) != 0) return refuse("not a request of this version");
    const char *method = next_line(&cursor, end);
    const char *url = next_line(&cursor, end);
    long long timeout_ms, body_limit, header_limit, no_proxy, header_count, body_length;
    if (!method || !*method || !url || !*url
        || !parse_number(next_line(&cursor, end), 1, 86400000LL, &timeout_ms)
        || !parse_number(next_line(&cursor, end), 0, 1LL << 30, &body_limit)
        || !parse_number(next_line(&cursor, end), 0, 1LL << 30, &header_limit)
        || !parse_number(next_line(&cursor, end), 0, 1, &no_proxy)
        || !parse_number(next_line(&cursor, end), 0, 1000, &header_count))
        return refuse("a malformed request");

    struct curl_slist *headers = NULL;
    for (long long i = 0; i < header_count; i++) {
        const char *line = next_line(&cursor, end);
        if (!line) return refuse("a malformed header");
        struct curl_slist *grown = curl_slist_append(headers, line);
        if (!grown) return refuse("out of memory");
        headers = grown;
    }
    if (!parse_number(next_line(&cursor, end), -1, REQUEST_LIMIT, &body_length)
        || (body_length >= 0 && body_length != (long long)(end - cursor)))
        return refuse("a malformed body");

    struct exchange exchange = {0};
    exchange.header_limit = (size_t)header_limit;
    exchange.body_limit = (size_t)body_limit;
    exchange.deadline = monotonic_now() + (double)timeout_ms / 1000.0;

    CURL *handle;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(handle = curl_easy_init())) {
        return answer("setup", CURLE_FAILED_INIT, 0, &exchange) ? 0 : 1;
    }
    // Every option must take: a libcurl that refuses one (too old for PROTOCOLS_STR, say) must
    // not send the request without it (a proxy for a loopback token, a redirect followed).
    CURLcode setup = CURLE_OK;
#define MUST(call) do { if (setup == CURLE_OK) setup = (call); } while (0)
    MUST(curl_easy_setopt(handle, CURLOPT_URL, url));
    MUST(curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L));
    MUST(curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, (long)timeout_ms));
    MUST(curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, (long)timeout_ms));
    MUST(curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L));
    MUST(allow_http_only(handle));
    MUST(curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)body_limit));
    MUST(curl_easy_setopt(handle, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED));
    // "" switches proxies off, the environment's included.
    if (no_proxy) MUST(curl_easy_setopt(handle, CURLOPT_PROXY, ""));
    MUST(curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers));
    if (strcmp(method, "POST") == 0) MUST(curl_easy_setopt(handle, CURLOPT_POST, 1L));
    else if (strcmp(method, "GET") != 0) MUST(curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method));
    if (body_length >= 0) {
        MUST(curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length));
        MUST(curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, cursor));
    }
    MUST(curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body));
    MUST(curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange));
    MUST(curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header));
    MUST(curl_easy_setopt(handle, CURLOPT_HEADERDATA, &exchange));
    MUST(curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L));
    MUST(curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress));
    MUST(curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &exchange));
#undef MUST
    // Our copy of the request (the token in it) is not needed past this point: libcurl copied
    // what it uses. (Not a promise that no copy is left: this process is not dumpable for that.)
    memset(input.data, 0, input.length);
    if (setup != CURLE_OK) return answer("setup", setup, 0, &exchange) ? 0 : 1;

    CURLcode code = curl_easy_perform(handle);
    long status = 0;
    if (code == CURLE_OK) curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    int written = answer(outcome(code, &exchange), code, status, &exchange);
    curl_easy_cleanup(handle);
    curl_slist_free_all(headers);
    return written ? 0 : 1;
}
