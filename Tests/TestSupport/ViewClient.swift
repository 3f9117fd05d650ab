/// What the behaviour suite does to a photofs view, written once and run against two
/// implementations: the in-process view layer (no kernel, no root) and a real kernel mount
/// of the shipped binary (POSIX calls on the mount). Paths are relative to the mount root;
/// failures are the errno a program would see.
public protocol ViewClient: AnyObject {
    /// The size `stat` reports.
    func stat(_ path: String) -> Result<Int64, ClientErrno>
    /// The names in a directory, in the order the view lists them.
    func list(_ path: String) -> Result<[String], ClientErrno>
    /// The whole file, as a fresh open + read + close.
    func read(_ path: String) -> Result<[UInt8], ClientErrno>
    /// Opens a file for reading and keeps it open (a descriptor, or what the kernel would hold).
    func open(_ path: String) -> Result<Int, ClientErrno>
    /// Reads the whole file through an open handle (from offset 0).
    func read(handle: Int) -> Result<[UInt8], ClientErrno>
    func close(handle: Int)
    /// One `write(2)` of picker commands to `.picker`: 0 or the errno.
    func writePicker(_ text: String) -> Int32
}

/// The errno of a failed call.
public struct ClientErrno: Error, Hashable, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { "errno \(code)" }
}

extension Result {
    /// The errno of a failure (0 on success).
    public var errnoCode: Int32 {
        switch self {
        case .success: 0
        case .failure(let error): (error as? ClientErrno)?.code ?? -1
        }
    }
}
