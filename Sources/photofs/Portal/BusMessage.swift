import CSystemd
import SystemKit

/// One D-Bus message (an sd-bus `sd_bus_message`), held by reference: a method call kept
/// until its reply is sent, or a message being read or built. Reads and appends one value
/// at a time (sd-bus's non-variadic calls); a failed read returns nil and leaves the caller
/// to give up on the message. Used only on the bus loop's thread (`Bus`).
final class BusMessage: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes a new reference to `pointer`.
    init(retaining pointer: OpaquePointer) {
        self.pointer = sd_bus_message_ref(pointer)
    }

    /// Adopts the reference a `sd_bus_message_new_*` call returned.
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { sd_bus_message_unref(pointer) }

    var member: String { sd_bus_message_get_member(pointer).map { String(cString: $0) } ?? "" }
    var interface: String { sd_bus_message_get_interface(pointer).map { String(cString: $0) } ?? "" }
    var path: String { sd_bus_message_get_path(pointer).map { String(cString: $0) } ?? "" }
    var sender: String { sd_bus_message_get_sender(pointer).map { String(cString: $0) } ?? "" }

    /// The error a reply carries, as `name: message`; nil for a method return.
    var errorText: String? {
        guard sd_bus_message_is_method_error(pointer, nil) > 0, let error = sd_bus_message_get_error(pointer) else { return nil }
        let name = error.pointee.name.map { String(cString: $0) } ?? "error"
        return name + (error.pointee.message.map { ": " + String(cString: $0) } ?? "")
    }

    // MARK: reading

    /// A string-like value: `s` string, `o` object path, `g` signature.
    func readString(_ type: Character = "s") -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(pointer, CChar(type.asciiValue!), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    func readUInt32() -> UInt32? {
        var value: UInt32 = 0
        return sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "u")), &value) > 0 ? value : nil
    }

    func readBool() -> Bool? {
        // D-Bus booleans are read into an int.
        var value: Int32 = 0
        return sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "b")), &value) > 0 ? value != 0 : nil
    }

    /// The type of the next value and, for a container, its contents' signature; nil at the end.
    func peek() -> (type: Character, contents: String)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(pointer, &type, &contents) > 0 else { return nil }
        return (Character(UnicodeScalar(UInt8(bitPattern: type))), contents.map { String(cString: $0) } ?? "")
    }

    /// Enters a container (`a`, `r` struct, `e` dict entry, `v` variant); false when the next
    /// value is not one, or at the end of an enclosing array.
    func enter(_ type: Character, _ contents: String) -> Bool {
        sd_bus_message_enter_container(pointer, CChar(type.asciiValue!), contents) > 0
    }

    func exit() { sd_bus_message_exit_container(pointer) }

    /// Skips the next values of `signature`.
    func skip(_ signature: String) -> Bool { sd_bus_message_skip(pointer, signature) >= 0 }

    /// Back to the first value, to read (or copy) the message again.
    func rewind() { sd_bus_message_rewind(pointer, 1) }

    // MARK: building

    func append(_ text: String) throws(BusError) {
        let result = text.withCString { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "s")), $0) }
        try BusError.check(result, "append a string")
    }

    func append(_ value: UInt32) throws(BusError) {
        var copy = value
        try BusError.check(sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: "u")), &copy), "append a number")
    }

    func open(_ type: Character, _ contents: String) throws(BusError) {
        try BusError.check(sd_bus_message_open_container(pointer, CChar(type.asciiValue!), contents), "open a container")
    }

    func close() throws(BusError) {
        try BusError.check(sd_bus_message_close_container(pointer), "close a container")
    }

    /// Appends every value of `source` from its start, unchanged (forwarding a call or a reply).
    func copyBody(of source: BusMessage) throws(BusError) {
        source.rewind()
        try BusError.check(sd_bus_message_copy(pointer, source.pointer, 1), "copy a message")
    }
}
