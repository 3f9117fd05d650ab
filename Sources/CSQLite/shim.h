// The only door to SQLite. Only PhotoCatalog imports it.
#ifndef PHOTOFS_CSQLITE_SHIM_H
#define PHOTOFS_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro cast of -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type photofs_sqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
#endif
