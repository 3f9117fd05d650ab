// The only door to libjxl (JPEG XL decoding: pixels of the first frame, turned upright).
// Encoding, progressive passes, animation and the box API beyond that are not used.
// Only PhotoImaging imports it.
#ifndef PHOTOFS_CJXL_SHIM_H
#define PHOTOFS_CJXL_SHIM_H
#include <jxl/decode.h>
#endif
