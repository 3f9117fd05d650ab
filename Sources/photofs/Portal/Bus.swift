import CSystemd
import Synchronization
import SystemKit

/// The backend's connection to the session bus over sd-bus, and the loop that serves it.
///
/// sd-bus is not thread-safe, so everything that touches the connection runs on the loop's
/// thread: method handlers and reply callbacks are called there, and other threads hand
/// work to it with `post` (a queue and a pipe that wakes the loop). What this does not
/// support: signals, properties, more than one connection.
final class Bus: @unchecked Sendable {
    private let connection: OpaquePointer
    /// A pipe whose write end `post` writes a byte to, to wake the loop.
    private let wake: (read: FileDescriptor, write: FileDescriptor)
    private let posted = Mutex<[@Sendable () -> Void]>([])
    private let stopping = Atomic<Bool>(false)

    private init(connection: OpaquePointer, wake: (read: FileDescriptor, write: FileDescriptor)) {
        self.connection = connection
        self.wake = wake
    }

    deinit {
        sd_bus_flush_close_unref(connection)
        wake.read.close()
        wake.write.close()
    }

    /// Connects to the session bus of `DBUS_SESSION_BUS_ADDRESS` (else the user's default).
    static func session() throws(BusError) -> Bus {
        var connection: OpaquePointer?
        try BusError.check(sd_bus_open_user(&connection), "connect to the session bus")
        guard let connection else { throw BusError("connect to the session bus", Errno.ioError) }
        let wake: (read: FileDescriptor, write: FileDescriptor)
        do throws(Errno) {
            wake = try FileDescriptor.pipe()
        } catch {
            sd_bus_unref(connection)
            throw BusError("make a pipe", error)
        }
        wake.read.setNonBlocking()
        wake.write.setNonBlocking()
        return Bus(connection: connection, wake: wake)
    }

    /// This connection's unique name (`:1.42`).
    var uniqueName: String {
        var name: UnsafePointer<CChar>?
        return sd_bus_get_unique_name(connection, &name) >= 0 ? name.map { String(cString: $0) } ?? "" : ""
    }

    /// Owns the well-known `name`; EEXIST when another connection has it.
    func own(_ name: String) throws(BusError) {
        try BusError.check(sd_bus_request_name(connection, name, 0), "own the bus name \(name)")
    }

    /// Serves `vtable` (from the shim) for `interface` at `path`; every method call goes to
    /// `handler`, which must reply (now or later) and returns what sd-bus expects (1: handled).
    func export(
        path: String, interface: String, vtable: UnsafePointer<sd_bus_vtable>, handler: @escaping (BusMessage) -> Int32
    ) throws(BusError) -> BusExport {
        let export = BusExport(handler: handler)
        var slot: OpaquePointer?
        try BusError.check(
            sd_bus_add_object_vtable(connection, &slot, path, interface, vtable, export.target), "serve \(interface) at \(path)")
        export.slot = slot
        return export
    }

    func methodCall(destination: String, path: String, interface: String, member: String) throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try BusError.check(
            sd_bus_message_new_method_call(connection, &message, destination, path, interface, member), "call \(destination)")
        return BusMessage(adopting: message!)
    }

    func methodReturn(to call: BusMessage) throws(BusError) -> BusMessage {
        var message: OpaquePointer?
        try BusError.check(sd_bus_message_new_method_return(call.pointer, &message), "reply to \(call.member)")
        return BusMessage(adopting: message!)
    }

    func send(_ message: BusMessage) throws(BusError) {
        try BusError.check(sd_bus_send(connection, message.pointer, nil), "send a message")
    }

    /// Replies to `call` with the D-Bus error `name` (`org.freedesktop.DBus.Error.Failed`).
    func replyError(to call: BusMessage, name: String, message: String) {
        var error = photofs_bus_error_null()
        sd_bus_error_set(&error, name, message)
        sd_bus_reply_method_error(call.pointer, &error)
        sd_bus_error_free(&error)
    }

    /// Sends `message` and calls `reply` on the loop with the answer (a method return, or an
    /// error when the peer failed, vanished or took longer than `timeout` seconds).
    func call(_ message: BusMessage, timeout: UInt64, reply: @escaping (BusMessage) -> Void) throws(BusError) {
        let box = Unmanaged.passRetained(ReplyBox(reply))
        let callback: sd_bus_message_handler_t = { message, context, _ in
            let box = Unmanaged<ReplyBox>.fromOpaque(context!).takeRetainedValue()
            if let message { box.reply(BusMessage(retaining: message)) }
            return 1
        }
        let result = sd_bus_call_async(connection, nil, message.pointer, callback, box.toOpaque(), timeout * 1_000_000)
        if result < 0 {
            box.release()
            throw BusError("call \(message.member)", result)
        }
    }

    /// Runs `work` on the loop's thread soon; callable from any thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(work) }
        // A full pipe already wakes the loop.
        _ = try? wake.write.write([UInt8(1)])
    }

    /// Makes `run` return soon; callable from any thread (a signal handler's queue).
    func stop() {
        stopping.store(true, ordering: .releasing)
        post {}
    }

    /// Serves the bus until `stop` is called or the bus goes away; returns which.
    func run() throws(BusError) -> LoopEnd {
        while true {
            if stopping.load(ordering: .acquiring) { return .stopped }
            while true {
                let result = sd_bus_process(connection, nil)
                if result == -Errno.connectionReset.rawValue || result == -Errno.notConnected.rawValue { return .disconnected }
                try BusError.check(result, "read from the session bus")
                if result == 0 { break }
            }
            let work = posted.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            for item in work { item() }
            if !work.isEmpty { continue }
            let seen: [Int16]
            do throws(Errno) {
                seen = try Poll.wait(
                    [
                        Poll.Entry(
                            FileDescriptor(rawValue: sd_bus_get_fd(connection)),
                            events: Int16(truncatingIfNeeded: sd_bus_get_events(connection))),
                        Poll.Entry(wake.read, events: Poll.readable),
                    ], milliseconds: timeoutMilliseconds())
            } catch {
                throw BusError("wait for the session bus", error)
            }
            if seen[1] & Poll.readable != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while ((try? wake.read.read(into: &drain)) ?? 0) > 0 {}
            }
        }
    }

    /// Sends what is queued (before the process exits).
    func flush() { sd_bus_flush(connection) }

    /// Why `run` returned.
    enum LoopEnd {
        case stopped
        case disconnected
    }

    /// sd-bus's next deadline (absolute, CLOCK_MONOTONIC) as a poll timeout.
    private func timeoutMilliseconds() -> Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(connection, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        let current = UInt64(SystemClock.monotonicNanoseconds()) / 1000
        guard deadline > current else { return 0 }
        return Int32(clamping: (deadline - current + 999) / 1000)
    }
}

/// The reply callback of one asynchronous call, kept alive until sd-bus calls it.
private final class ReplyBox {
    let reply: (BusMessage) -> Void
    init(_ reply: @escaping (BusMessage) -> Void) { self.reply = reply }
}

/// An object served on the bus: the handler its vtable's methods reach, until `remove`.
final class BusExport {
    let handler: (BusMessage) -> Int32
    /// The shim's trampoline target, pointing back at this object.
    let target: UnsafeMutablePointer<photofs_bus_target>
    var slot: OpaquePointer?

    init(handler: @escaping (BusMessage) -> Int32) {
        self.handler = handler
        target = .allocate(capacity: 1)
        target.initialize(
            to: photofs_bus_target(
                handler: { message, context, _ in
                    let export = Unmanaged<BusExport>.fromOpaque(context!).takeUnretainedValue()
                    guard let message else { return -Errno.invalidArgument.rawValue }
                    return export.handler(BusMessage(retaining: message))
                }, context: nil))
        target.pointee.context = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Stops serving the object (its methods then answer UnknownObject).
    func remove() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }

    deinit {
        remove()
        target.deallocate()
    }
}
