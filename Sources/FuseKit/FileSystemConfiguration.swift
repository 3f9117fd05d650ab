import PhotoCore

/// Everything the file system needs to know at start, built once by the executable.
public struct FileSystemConfiguration: Sendable {
    /// The library root (absolute path bytes); every source file is opened below it.
    public var libraryPath: [UInt8]
    /// The mounting user: owns the mount and sees everything (as does root).
    public var ownerUID: UInt32
    public var ownerGID: UInt32
    /// Seconds the kernel may cache names and attributes; changes are pushed explicitly.
    public var cacheTimeout: Double = 86_400
    /// The most FUSE worker threads.
    public var maxThreads = 16
    /// Whether users other than the mounting one may enter (`allow_other`, `allow_root`):
    /// then the kernel's caches, which serve every caller alike, must not carry what
    /// differs by caller (`FuseMount.othersMayEnter`).
    public var othersMayEnter = false
    /// Where log lines go (stderr in the daemon). Never given a GPS coordinate.
    public var log: @Sendable (String) -> Void
    /// Told of every READ an app's view serves (the access log); nil records nothing.
    public var accessRecorder: (any AccessRecorder)?
    /// Makes the files of representations other than the original (compatible JPEGs);
    /// without one, such files answer EIO.
    public var representations: (any RepresentationProviding)?

    /// What every mount must say; the rest has its default until set.
    public init(libraryPath: [UInt8], ownerUID: UInt32, ownerGID: UInt32, log: @escaping @Sendable (String) -> Void) {
        self.libraryPath = libraryPath
        self.ownerUID = ownerUID
        self.ownerGID = ownerGID
        self.log = log
    }
}
