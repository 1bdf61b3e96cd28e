#ifndef DARKROOM_CLIBCRYPTO_SHIM_H
#define DARKROOM_CLIBCRYPTO_SHIM_H
/* OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 only: its EVP digests use the CPU's SHA
   instructions where there are any. */
#include <openssl/evp.h>
#endif
