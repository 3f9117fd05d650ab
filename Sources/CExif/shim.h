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
#endif
