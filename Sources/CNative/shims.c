#include "CNative.h"
#include <string.h>

long cnative_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) { return SSL_CTX_set_min_proto_version(ctx, version); }
long cnative_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
void cnative_SSL_CTX_set_server_defaults(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
}
long cnative_SSL_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
int cnative_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }

static int select_h2(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                     const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    if (nghttp2_select_next_protocol((unsigned char **)out, outlen, in, inlen) == 1) {
        return SSL_TLSEXT_ERR_OK;
    }
    /* No h2 on offer (curl --http1.1): finish the handshake without ALPN, as APNs does; the HTTP/1.x request that
       follows is answered with APNs' GOAWAY by the transport. */
    return SSL_TLSEXT_ERR_NOACK;
}

void cnative_SSL_CTX_enable_h2_alpn(SSL_CTX *ctx) { SSL_CTX_set_alpn_select_cb(ctx, select_h2, NULL); }

const char *cnative_SSL_get_servername(const SSL *ssl) { return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name); }

void cnative_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

sqlite3_destructor_type cnative_sqlite_transient(void) { return SQLITE_TRANSIENT; }

int cnative_bound_port(int fd) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof(storage);
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) return -1;
    if (storage.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&storage)->sin6_port);
    if (storage.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&storage)->sin_port);
    return -1;
}

static pthread_once_t libevent_pthreads_once = PTHREAD_ONCE_INIT;
static void use_pthreads(void) { evthread_use_pthreads(); }
void cnative_libevent_use_pthreads_once(void) { pthread_once(&libevent_pthreads_once, use_pthreads); }
