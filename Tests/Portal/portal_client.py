#!/usr/bin/python3
"""The app side of the portal tests: one FileChooser call on the session bus, and its
answer as one JSON line {"response": N, "results": {...}}.

Usage:
  portal_client.py portal METHOD KIND [--single]
      org.freedesktop.portal.FileChooser.METHOD through xdg-desktop-portal (the frontend);
      waits for the request's Response signal.
  portal_client.py impl KIND APP_ID [--single] [--close-after SECONDS] [--title TITLE]
      org.freedesktop.impl.portal.FileChooser.OpenFile straight to photofs's backend, as the
      frontend would call it; --close-after closes the request handle after that long.
KIND: images (an image/* filter and *.jpg), media (image and video MIME types),
documents (PDF and an "All files" filter), none (no filter)."""
import json
import sys

from gi.repository import Gio, GLib

FILTERS = {
    "images": [("Images", [(1, "image/*"), (0, "*.[jJ][pP][gG]")])],
    "media": [("Photos and videos", [(1, "image/jpeg"), (1, "video/mp4")])],
    "documents": [("PDF", [(1, "application/pdf")]), ("All files", [(0, "*")])],
    "none": [],
}


def options(kind, multiple, token):
    result = {
        "handle_token": GLib.Variant("s", token),
        "multiple": GLib.Variant("b", multiple),
        "accept_label": GLib.Variant("s", "Use"),
    }
    if FILTERS[kind]:
        result["filters"] = GLib.Variant("a(sa(us))", FILTERS[kind])
        result["current_filter"] = GLib.Variant("(sa(us))", FILTERS[kind][0])
    return result


def through_portal(bus, method, kind, multiple):
    sender = bus.get_unique_name()[1:].replace(".", "_")
    token = "photofs_test_%d" % GLib.random_int()
    handle = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender, token)
    loop = GLib.MainLoop()
    answer = {}

    def response(connection, name, path, interface, signal, parameters):
        code, results = parameters.unpack()
        answer.update(response=code, results=results)
        loop.quit()

    bus.signal_subscribe(None, "org.freedesktop.portal.Request", "Response", handle, None,
                         Gio.DBusSignalFlags.NONE, response)
    reply = bus.call_sync("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                          "org.freedesktop.portal.FileChooser", method,
                          GLib.Variant("(ssa{sv})", ("", "Choose photos", options(kind, multiple, token))),
                          GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, 30000, None)
    answer["handle"] = reply.unpack()[0]
    print(json.dumps({"asked": answer["handle"]}), flush=True)
    GLib.timeout_add_seconds(300, loop.quit)
    loop.run()
    return answer


def to_backend(bus, kind, app_id, multiple, close_after, title):
    handle = "/org/freedesktop/portal/desktop/request/1_999/photofs_test_%d" % GLib.random_int()
    loop = GLib.MainLoop()
    answer = {}

    def done(connection, result):
        try:
            code, results = connection.call_finish(result).unpack()
            answer.update(response=code, results=results)
        except GLib.Error as error:
            answer.update(error=error.message)
        loop.quit()

    parameters = GLib.Variant("(osssa{sv})", (handle, app_id, "", title, options(kind, multiple, "t")))
    bus.call("org.freedesktop.impl.portal.desktop.photofs", "/org/freedesktop/portal/desktop",
             "org.freedesktop.impl.portal.FileChooser", "OpenFile", parameters, GLib.VariantType("(ua{sv})"),
             Gio.DBusCallFlags.NONE, GLib.MAXINT, None, done)
    print(json.dumps({"asked": handle}), flush=True)

    def close():
        bus.call_sync("org.freedesktop.impl.portal.desktop.photofs", handle, "org.freedesktop.impl.portal.Request",
                      "Close", None, None, Gio.DBusCallFlags.NONE, 10000, None)
        print(json.dumps({"closed": handle}), flush=True)
        return False

    if close_after is not None:
        GLib.timeout_add(int(close_after * 1000), close)
    GLib.timeout_add_seconds(300, loop.quit)
    loop.run()
    return answer


def main():
    arguments = sys.argv[1:]
    multiple = "--single" not in arguments
    close_after = None
    if "--close-after" in arguments:
        close_after = float(arguments[arguments.index("--close-after") + 1])
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    if arguments[0] == "portal":
        answer = through_portal(bus, arguments[1], arguments[2], multiple)
    else:
        title = arguments[arguments.index("--title") + 1] if "--title" in arguments else "Choose photos"
        answer = to_backend(bus, arguments[1], arguments[2], multiple, close_after, title)
    print(json.dumps(answer, default=str), flush=True)


if __name__ == "__main__":
    main()
