// The only door to libwebp's still-image decoder. Only PhotoImaging imports it.
#ifndef PHOTOFS_CWEBP_SHIM_H
#define PHOTOFS_CWEBP_SHIM_H
#include <webp/decode.h>
#endif
