// The only door to libjpeg-turbo's TurboJPEG API (decode with DCT-domain scaling, encode).
// Only PhotoImaging imports it.
#ifndef PHOTOFS_CTURBOJPEG_SHIM_H
#define PHOTOFS_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
