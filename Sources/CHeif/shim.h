// The only door to libheif (HEIC, HEIF and AVIF decoding, embedded thumbnails, Exif items).
// Only PhotoImaging imports it.
#ifndef PHOTOFS_CHEIF_SHIM_H
#define PHOTOFS_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
