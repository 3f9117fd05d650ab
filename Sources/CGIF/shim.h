// The only door to giflib's decoder (first frame of a GIF). Only PhotoImaging imports it.
#ifndef PHOTOFS_CGIF_SHIM_H
#define PHOTOFS_CGIF_SHIM_H
#include <gif_lib.h>
#endif
