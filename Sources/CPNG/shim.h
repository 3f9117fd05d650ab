// The only door to libpng, through its simplified png_image API (decode and encode in
// memory; errors come back as values, no longjmp). Only PhotoImaging imports it.
#ifndef PHOTOFS_CPNG_SHIM_H
#define PHOTOFS_CPNG_SHIM_H
#include <png.h>
#endif
