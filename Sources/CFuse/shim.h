// The only door to libfuse3. Low-level API, version 3.14, so that
// fuse_session_loop_mt and fuse_loop_cfg_* are visible to Swift.
// Macros that Swift cannot import are rebuilt here as inline functions.
#ifndef PHOTOFS_CFUSE_SHIM_H
#define PHOTOFS_CFUSE_SHIM_H
#define FUSE_USE_VERSION 314
#include <fuse3/fuse_lowlevel.h>
#include <fuse3/fuse_opt.h>
#include <sys/stat.h>
#include <stddef.h>
#include <linux/fuse.h>
#include <string.h>

// Directory entries that carry a name, an inode number and a type and nothing else, written
// in the kernel's reply layout (linux/fuse.h) with the name's length known: libfuse's
// fuse_add_direntry(_plus) take a NUL-terminated name and a whole struct stat, whose copy,
// conversion and strlen cost more than the entry itself in a listing of 100,000 names.
// Each returns the entry's size and writes it only when it fits in `size` bytes at `buf`.

/// A READDIR entry.
static inline size_t photofs_name_entry(char *buf, size_t size, const unsigned char *name, size_t length, uint64_t ino,
                                        uint32_t mode, uint64_t next) {
    size_t whole = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + length);
    if (whole > size) return whole;
    struct fuse_dirent *entry = (struct fuse_dirent *)buf;
    entry->ino = ino;
    entry->off = next;
    entry->namelen = (uint32_t)length;
    entry->type = (mode & S_IFMT) >> 12;
    memcpy(entry->name, name, length);
    memset(entry->name + length, 0, whole - FUSE_NAME_OFFSET - length);
    return whole;
}

/// A READDIRPLUS entry with node id 0: the kernel takes it as a plain name and builds no
/// inode or dentry for it (as libfuse's fuse_add_direntry_plus writes one for an entry
/// whose `ino` is 0).
static inline size_t photofs_name_only_plus_entry(char *buf, size_t size, const unsigned char *name, size_t length, uint64_t ino,
                                                  uint32_t mode, uint64_t next) {
    size_t whole = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET_DIRENTPLUS + length);
    if (whole > size) return whole;
    struct fuse_direntplus *entry = (struct fuse_direntplus *)buf;
    memset(&entry->entry_out, 0, sizeof entry->entry_out);
    entry->entry_out.attr.ino = ino;
    entry->entry_out.attr.mode = mode;
    entry->dirent.ino = ino;
    entry->dirent.off = next;
    entry->dirent.namelen = (uint32_t)length;
    entry->dirent.type = (mode & S_IFMT) >> 12;
    memcpy(entry->dirent.name, name, length);
    memset(entry->dirent.name + length, 0, whole - FUSE_NAME_OFFSET_DIRENTPLUS - length);
    return whole;
}
#endif
