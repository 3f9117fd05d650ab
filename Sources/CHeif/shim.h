// The only door to libheif (HEIC, HEIF and AVIF decoding, embedded thumbnails, Exif items)
// and to libde265, the HEVC decoder under it, which photofs calls itself only to keep a
// HEIC picture in YCbCr on its way to a JPEG. Only PhotoImaging imports it.
#ifndef PHOTOFS_CHEIF_SHIM_H
#define PHOTOFS_CHEIF_SHIM_H
#include <libheif/heif.h>
#include <libde265/de265.h>
#endif
