// The one C module: every C header the project uses, included once so that libevent, OpenSSL, nghttp2 and
// SQLite agree on shared system types (separate system modules collide over fd_set). Shim functions wrap what
// Swift cannot import (OpenSSL macros) and are prefixed `cnative_`.
#ifndef CNATIVE_H
#define CNATIVE_H

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>

#include <nghttp2/nghttp2.h>

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/decoder.h>
#include <openssl/core_names.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/listener.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/thread.h>

#include <sqlite3.h>

// ---- OpenSSL macro shims -------------------------------------------------------------------------
long cnative_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version);
long cnative_SSL_CTX_set_mode(SSL_CTX *ctx, long mode);
/// No compression, no renegotiation, server cipher preference, release idle buffers (SSL_OP_* are macros).
void cnative_SSL_CTX_set_server_defaults(SSL_CTX *ctx);
long cnative_SSL_set_tlsext_host_name(SSL *ssl, const char *name);
int cnative_TLS1_2_VERSION(void);
/// Installs an ALPN select callback that picks "h2" when offered and accepts a handshake that offers no ALPN
/// (aioapns and Pushy send none); a client that offers only other protocols gets no ALPN answer, like APNs.
void cnative_SSL_CTX_enable_h2_alpn(SSL_CTX *ctx);
/// The server-name indication the client sent, or NULL.
const char *cnative_SSL_get_servername(const SSL *ssl);
/// Frees a string allocated by OpenSSL.
void cnative_OPENSSL_free(void *ptr);
/// Writes `name` to `bio` on one line in RFC 2253 form (XN_FLAG_RFC2253 is a macro); <0 on failure.
int cnative_X509_NAME_print_rfc2253(BIO *bio, const X509_NAME *name);
/// Adds a standard extension to `cert` from its openssl.cnf text (`critical,CA:FALSE`), issuer context `issuer`
/// (X509V3_set_ctx is a macro-laden struct setup); 1 on success.
int cnative_X509_add_ext_conf(X509 *cert, X509 *issuer, int nid, const char *value);
/// Adds a non-critical extension with dotted `oid` whose value is the DER `der`; 1 on success.
int cnative_X509_add_ext_der(X509 *cert, const char *oid, const unsigned char *der, int length);

// ---- EC key loading without OpenSSL 3's try-every-decoder search -------------------------------------
// PEM_read_bio_PrivateKey and friends build a decoder chain from every provider decoder (~3-4M instructions per
// key); naming the input (PEM) and key type (EC) leaves one chain (~1M). Each returns NULL, with OpenSSL's error
// queue as it was before the call, for anything else (another key type, an encrypted key, a first PEM block that
// is not the key): the caller then uses the general function, whose answer and errors are the reference.
/// The EC private key in the first PEM block read from `bio` (PKCS#8 or SEC1, unencrypted), or NULL. The BIO
/// stays the caller's.
EVP_PKEY *cnative_read_ec_private_key_pem(BIO *bio);
/// The EC private key in the first PEM block of the file at `path`, or NULL.
EVP_PKEY *cnative_read_ec_private_key_pem_file(const char *path);
/// The EC public key in the first PEM block read from `bio` (SubjectPublicKeyInfo, `BEGIN PUBLIC KEY`), or NULL.
/// The BIO stays the caller's.
EVP_PKEY *cnative_read_ec_public_key_pem(BIO *bio);
/// Writes the uncompressed public point (0x04 || X || Y) of a P-256 `key` to `point` (65 bytes); 1 on success,
/// 0 (error queue unchanged) when the key has no such point or its curve is not encoded by name (a key kept in
/// compressed form or with explicit curve parameters, whose SubjectPublicKeyInfo is not the named-curve one).
int cnative_ec_p256_public_point(const EVP_PKEY *key, unsigned char point[65]);
/// A public-only P-256 key from an uncompressed point, or NULL (error queue unchanged).
EVP_PKEY *cnative_ec_p256_public_key(const unsigned char point[65]);

// ---- socket and libevent helpers shared by the transport and the admin server -------------------------
/// The local port a bound socket listens on (IPv4 or IPv6), or -1 when getsockname fails.
int cnative_bound_port(int fd);
/// libevent's pthread locking (evthread_use_pthreads), set up once per process however often it is called; it
/// must run before the first event base is created so another thread may wake a loop.
void cnative_libevent_use_pthreads_once(void);

// ---- sqlite3 macro shims -------------------------------------------------------------------------
/// SQLITE_TRANSIENT as a function: bind calls copy the bytes.
sqlite3_destructor_type cnative_sqlite_transient(void);
/// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, !enabled, NULL) (a variadic call Swift cannot make):
/// with `enabled` 0, closing the last connection leaves the WAL as it is instead of copying it into the file.
int cnative_sqlite_checkpoint_on_close(sqlite3 *db, int enabled);
/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) once per process, before the first connection opens (a variadic call
/// Swift cannot make): SQLite then keeps no memory statistics, a mutex and two counters less on every allocation.
void cnative_sqlite_memstatus_off_once(void);

#endif
