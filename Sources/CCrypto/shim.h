// The only door to OpenSSL's libcrypto, used for its message digests (SHA-256, which
// runs on the CPU's SHA instructions where there are any). Only PhotoHashing imports it.
// Supports the EVP digest interface; nothing of TLS, ciphers or keys is used.
#ifndef PHOTOFS_CCRYPTO_SHIM_H
#define PHOTOFS_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
