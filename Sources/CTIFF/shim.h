// The only door to libtiff: the first directory of a TIFF in every compression and
// photometric interpretation libtiff reads, decoded to RGBA. Only PhotoImaging imports it.
#ifndef PHOTOFS_CTIFF_SHIM_H
#define PHOTOFS_CTIFF_SHIM_H
#include <tiffio.h>

// TIFFGetField is variadic, which Swift cannot call: these read the fields photofs needs.
static inline int photofs_tiff_size(TIFF *tiff, uint32_t *width, uint32_t *height) {
    return TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, width) == 1 && TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, height) == 1;
}

static inline int photofs_tiff_orientation(TIFF *tiff) {
    uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    return orientation;
}

// Swallows libtiff's messages: the decoder's error says what failed, and a hostile file
// must not fill a log.
static inline int photofs_tiff_quiet(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

// Options for TIFFClientOpenExt: no messages, and no single allocation above `limit`
// bytes (a header can claim anything).
static inline TIFFOpenOptions *photofs_tiff_options(tmsize_t limit) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return NULL;
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, limit);
    TIFFOpenOptionsSetErrorHandlerExtR(options, photofs_tiff_quiet, NULL);
    TIFFOpenOptionsSetWarningHandlerExtR(options, photofs_tiff_quiet, NULL);
    return options;
}
#endif
