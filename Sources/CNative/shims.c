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

int cnative_X509_add_ext_conf(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (extension == NULL) return 0;
    int added = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

int cnative_X509_add_ext_der(X509 *cert, const char *oid, const unsigned char *der, int length) {
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
    int added = 0;
    if (object != NULL && value != NULL && ASN1_OCTET_STRING_set(value, der, length) == 1) {
        X509_EXTENSION *extension = X509_EXTENSION_create_by_OBJ(NULL, object, 0, value);
        if (extension != NULL) {
            added = X509_add_ext(cert, extension, -1);
            X509_EXTENSION_free(extension);
        }
    }
    ASN1_OBJECT_free(object);
    ASN1_OCTET_STRING_free(value);
    return added;
}

int cnative_X509_NAME_print_rfc2253(BIO *bio, const X509_NAME *name) {
    return X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
}

sqlite3_destructor_type cnative_sqlite_transient(void) { return SQLITE_TRANSIENT; }

static void sqliteMemstatusOff(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

void cnative_sqlite_memstatus_off_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sqliteMemstatusOff);
}

int cnative_sqlite_checkpoint_on_close(sqlite3 *db, int enabled) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, (int *)0);
}

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

// ---- EC key loading (see CNative.h) ----------------------------------------------------------------------

/// Refuses every passphrase request, so that an encrypted key fails (and the general path reports it).
static int refuse_passphrase(char *buffer, int size, int rwflag, void *userdata) {
    (void)buffer; (void)size; (void)rwflag; (void)userdata;
    return -1;
}

/// A decoder asked for a key pair also returns a lone public key; the general reader refuses that for a private key.
static int has_selected_parts(const EVP_PKEY *key, int selection) {
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) == 0) return 1;
    BIGNUM *private = NULL;
    int has = EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &private) == 1 && private != NULL;
    BN_clear_free(private);
    return has;
}

static EVP_PKEY *decode_ec_key(BIO *bio, const char *structure, int selection) {
    EVP_PKEY *key = NULL;
    if (bio == NULL) return NULL;
    OSSL_DECODER_CTX *context = OSSL_DECODER_CTX_new_for_pkey(&key, "PEM", structure, "EC", selection, NULL, NULL);
    if (context != NULL && OSSL_DECODER_CTX_set_pem_password_cb(context, refuse_passphrase, NULL) == 1
        && OSSL_DECODER_from_bio(context, bio) == 1 && key != NULL && has_selected_parts(key, selection)) {
        OSSL_DECODER_CTX_free(context);
        return key;
    }
    OSSL_DECODER_CTX_free(context);
    EVP_PKEY_free(key);
    return NULL;
}

static EVP_PKEY *decode_ec_key_marked(BIO *bio, const char *structure, int selection) {
    ERR_set_mark();
    EVP_PKEY *key = decode_ec_key(bio, structure, selection);
    ERR_pop_to_mark();
    return key;
}

EVP_PKEY *cnative_read_ec_private_key_pem(BIO *bio) {
    return decode_ec_key_marked(bio, NULL, EVP_PKEY_KEYPAIR);
}

EVP_PKEY *cnative_read_ec_private_key_pem_file(const char *path) {
    BIO *bio = BIO_new_file(path, "r");
    EVP_PKEY *key = decode_ec_key_marked(bio, NULL, EVP_PKEY_KEYPAIR);
    BIO_free(bio);
    return key;
}

EVP_PKEY *cnative_read_ec_public_key_pem(BIO *bio) {
    return decode_ec_key_marked(bio, "SubjectPublicKeyInfo", EVP_PKEY_PUBLIC_KEY);
}

int cnative_ec_p256_public_point(const EVP_PKEY *key, unsigned char point[65]) {
    size_t length = 0;
    char encoding[16] = {0};
    ERR_set_mark();
    int got = EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_EC_ENCODING, encoding, sizeof encoding, NULL) == 1
        && strcmp(encoding, OSSL_PKEY_EC_ENCODING_GROUP) == 0
        && EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, 65, &length) == 1;
    ERR_pop_to_mark();
    return got && length == 65 && point[0] == 0x04;
}

EVP_PKEY *cnative_ec_p256_public_key(const unsigned char point[65]) {
    EVP_PKEY *key = NULL;
    ERR_set_mark();
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, 65),
        OSSL_PARAM_construct_end(),
    };
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context == NULL || EVP_PKEY_fromdata_init(context) != 1
        || EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    ERR_pop_to_mark();
    return key;
}
