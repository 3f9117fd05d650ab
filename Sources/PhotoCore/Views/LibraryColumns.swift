import MediaFormats

/// The fields of a snapshot's assets that grouping them into the library views' directories
/// reads, each in its own dense array by asset position, read in one pass in storage order.
struct LibraryColumns {
    /// The `by-date` day (YYYYMMDD) of each asset.
    let days: [Int64]
    /// Each asset's `by-camera` directory, as an index into `cameraNames`.
    let cameras: [Int32]
    /// The `by-camera` directory names, each once.
    let cameraNames: [[UInt8]]

    init(days: [Int64], cameras: [Int32], cameraNames: [[UInt8]]) {
        self.days = days
        self.cameras = cameras
        self.cameraNames = cameraNames
    }

    /// The columns of `assets`.
    init(_ assets: ChunkedArray<Asset>) {
        let count = assets.count
        var days: [Int64] = []
        var cameras: [Int32] = []
        days.reserveCapacity(count)
        cameras.reserveCapacity(count)
        var cameraNames: [[UInt8]] = []
        var cameraByName: [NameKey: Int32] = [:]
        // A library has a handful of cameras and photos come in bursts: a (make, model)
        // pair is looked up only when it differs from the previous asset's, and named once.
        var cameraByKey: [CameraKey: Int32] = [:]
        var last: (key: CameraKey, camera: Int32)?
        for position in 0..<count {
            // Fields read in place: copying a whole asset retains each of its parts.
            days.append(Self.day(of: assets[position].effectiveDate))
            let key = CameraKey(make: assets[position].metadata.make, model: assets[position].metadata.model)
            let camera: Int32
            if let last, last.key == key {
                camera = last.camera
            } else if let known = cameraByKey[key] {
                camera = known
            } else {
                let name = ViewNaming.sanitized(Array(ViewTree.cameraName(make: key.make, model: key.model).utf8))
                if let shared = cameraByName[NameKey(name)] {
                    camera = shared
                } else {
                    camera = Int32(cameraNames.count)
                    cameraNames.append(name)
                    cameraByName[NameKey(name)] = camera
                }
                cameraByKey[key] = camera
            }
            last = (key, camera)
            cameras.append(camera)
        }
        self.days = days
        self.cameras = cameras
        self.cameraNames = cameraNames
    }

    /// The `by-date` day of a date as YYYYMMDD.
    static func day(of date: CaptureDate) -> Int64 {
        Int64(date.year) * 10_000 + Int64(date.month) * 100 + Int64(date.day)
    }

    /// The last non-empty `/`-separated component of a path (`LibraryPath.fileName`
    /// without splitting the whole path), as a slice of `path` (no copy).
    @inline(__always)
    static func lastComponentInPlace(of path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = path.count
        while end > 0, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > 0, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return UnsafeBufferPointer(rebasing: path[start..<end])
    }
}
