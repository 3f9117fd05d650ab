// The only door to libfuse3. Low-level API, version 3.14, so that
// fuse_session_loop_mt and fuse_loop_cfg_* are visible to Swift.
// Macros that Swift cannot import are rebuilt here as inline functions.
#ifndef PHOTOFS_CFUSE_SHIM_H
#define PHOTOFS_CFUSE_SHIM_H
#define FUSE_USE_VERSION 314
#include <fuse3/fuse_lowlevel.h>
#include <fuse3/fuse_opt.h>
#include <sys/stat.h>
#endif
