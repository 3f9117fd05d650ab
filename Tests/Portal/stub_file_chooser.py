#!/usr/bin/python3
"""A stand-in for the desktop's own FileChooser backend (gtk, gnome, kde) in the portal
tests: owns the bus name given as argument 1 on the session bus, answers OpenFile,
SaveFile and SaveFiles with response 0, a URI naming the method, and every argument it
received (so the test can see they arrived unchanged). A dialog titled "hold" stays open
until its request handle is closed: the stub prints "closed HANDLE" and answers 1.
Prints "ready" once it owns the name; runs until killed."""
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.impl.portal.FileChooser">
    <method name="OpenFile">
      <arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="SaveFile">
      <arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="SaveFiles">
      <arg type="o" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="a{sv}" direction="in"/>
      <arg type="u" direction="out"/><arg type="a{sv}" direction="out"/>
    </method>
  </interface>
</node>
"""

REQUEST = """
<node>
  <interface name="org.freedesktop.impl.portal.Request">
    <method name="Close"/>
  </interface>
</node>
"""


def main():
    name = sys.argv[1]
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    info = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
    request_info = Gio.DBusNodeInfo.new_for_xml(REQUEST).interfaces[0]
    held = {}

    def call(connection, sender, path, interface, method, parameters, invocation):
        results = {
            "uris": GLib.Variant("as", ["file:///stub/" + method]),
            # The call as it arrived, printed by GLib so the test compares text.
            "stub_received": GLib.Variant("s", parameters.print_(True)),
        }
        print("call", method, parameters.print_(True), flush=True)
        handle, title = parameters.get_child_value(0).get_string(), parameters.get_child_value(3).get_string()
        if title == "hold":
            def close(connection, sender, path, interface, method, parameters, close_invocation):
                print("closed", path, flush=True)
                close_invocation.return_value(None)
                invocation.return_value(GLib.Variant("(ua{sv})", (1, {})))
                connection.unregister_object(held.pop(path))
            held[handle] = bus.register_object(handle, request_info, close, None, None)
            return
        invocation.return_value(GLib.Variant("(ua{sv})", (0, results)))

    bus.register_object("/org/freedesktop/portal/desktop", info, call, None, None)
    loop = GLib.MainLoop()

    def acquired(connection, owned):
        print("ready", flush=True)

    def lost(connection, owned):
        print("name lost", flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(bus, name, Gio.BusNameOwnerFlags.NONE, acquired, lost)
    loop.run()


if __name__ == "__main__":
    main()
