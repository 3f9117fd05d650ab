// The only door to libsystemd: the journal's native protocol (sd_journal_sendv, which
// takes an iovec array, since Swift cannot call the variadic sd_journal_send) and service
// readiness (sd_notify). Nothing else of libsystemd is used.
#ifndef PHOTOFS_CSYSTEMD_SHIM_H
#define PHOTOFS_CSYSTEMD_SHIM_H
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
