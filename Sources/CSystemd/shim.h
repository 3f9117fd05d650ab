// The only door to libsystemd: the journal's native protocol (sd_journal_sendv, which
// takes an iovec array, since Swift cannot call the variadic sd_journal_send), service
// readiness (sd_notify) and the D-Bus connection of the desktop portal backend (sd-bus).
//
// sd-bus's object tables (vtables) are built by C macros that Swift cannot expand, so the
// two tables the portal backend serves are written here, with one trampoline as every
// method's handler: the object's userdata is a `photofs_bus_target`, which names the Swift
// function and its context. Nothing else of libsystemd is used; the variadic sd-bus calls
// (sd_bus_message_read, _append) are not called from Swift, only their one-value forms.
#ifndef PHOTOFS_CSYSTEMD_SHIM_H
#define PHOTOFS_CSYSTEMD_SHIM_H
#include <sys/uio.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/// Where a method call on an object goes: a C-callable Swift function and its context.
typedef struct photofs_bus_target {
    sd_bus_message_handler_t handler;
    void *context;
} photofs_bus_target;

static int photofs_bus_trampoline(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    const photofs_bus_target *target = (const photofs_bus_target *)userdata;
    return target->handler(message, target->context, error);
}

/// org.freedesktop.impl.portal.FileChooser: OpenFile, SaveFile, SaveFiles, each
/// (handle, app_id, parent_window, title, options) -> (response, results).
static inline const sd_bus_vtable *photofs_file_chooser_vtable(void) {
    static const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD_WITH_NAMES("OpenFile", "osssa{sv}",
            SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
            "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), photofs_bus_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("SaveFile", "osssa{sv}",
            SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
            "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), photofs_bus_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD_WITH_NAMES("SaveFiles", "osssa{sv}",
            SD_BUS_PARAM(handle) SD_BUS_PARAM(app_id) SD_BUS_PARAM(parent_window) SD_BUS_PARAM(title) SD_BUS_PARAM(options),
            "ua{sv}", SD_BUS_PARAM(response) SD_BUS_PARAM(results), photofs_bus_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
    };
    return table;
}

/// org.freedesktop.impl.portal.Request: Close, on each request's handle.
static inline const sd_bus_vtable *photofs_request_vtable(void) {
    static const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Close", "", "", photofs_bus_trampoline, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
    };
    return table;
}

/// A zeroed error (SD_BUS_ERROR_NULL), which Swift cannot spell.
static inline sd_bus_error photofs_bus_error_null(void) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    return error;
}
#endif
