// The only door to libexif. Only PhotoMetadata imports it.
#ifndef PHOTOFS_CEXIF_SHIM_H
#define PHOTOFS_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-log.h>
#include <stdarg.h>
#include <stdio.h>

// Formats one libexif log message (a printf format and its arguments) into `buffer`.
static inline int photofs_exif_format(char *buffer, size_t size, const char *format, va_list arguments) {
    return vsnprintf(buffer, size, format, arguments);
}
#endif
