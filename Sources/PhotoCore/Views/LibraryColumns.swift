import MediaFormats

/// The fields of a snapshot's assets that building the library views reads, each in its own
/// dense array by asset position, read in one pass in storage order.
///
/// The views visit assets in date order, which jumps across the asset array: at 1,000,000
/// assets nearly every such read of an asset (hundreds of bytes each) missed the cache, and
/// so did comparing paths held in a million separate arrays. A column is a few bytes per
/// asset, and the paths sit back to back in one buffer.
struct LibraryColumns {
    /// Each asset's id and sanitized base name: what naming a file reads, in one place, so
    /// that visiting assets in date order misses the cache once per file rather than once
    /// per column.
    let files: [LibraryFile]
    /// `effectiveDate.sortKey` (YYYYMMDDHHMMSS).
    let sortKeys: [Int64]
    /// The `by-date` day (YYYYMMDD) of each asset.
    let days: [Int64]
    /// Each asset's `by-camera` directory, as an index into `cameraNames`.
    let cameras: [Int32]
    /// The `by-camera` directory names, each once.
    let cameraNames: [[UInt8]]
    /// Every asset position in path order (byte-wise, then id). The paths are copied back
    /// to back only to sort them and not kept: at 1,000,000 assets they are about 50 MB,
    /// which would add to the peak of the naming that follows.
    let pathOrder: [Int]

    /// The columns of `assets`.
    init(_ assets: ChunkedArray<Asset>) {
        let count = assets.count
        var files: [LibraryFile] = []
        var sortKeys: [Int64] = []
        var days: [Int64] = []
        var cameras: [Int32] = []
        var pathStarts: [Int] = [0]
        var pathBytes: [UInt8] = []
        files.reserveCapacity(count)
        sortKeys.reserveCapacity(count)
        days.reserveCapacity(count)
        cameras.reserveCapacity(count)
        pathStarts.reserveCapacity(count + 1)
        var cameraNames: [[UInt8]] = []
        var cameraByName: [NameKey: Int32] = [:]
        // A library has a handful of cameras and photos come in bursts: a (make, model)
        // pair is looked up only when it differs from the previous asset's, and named once.
        var cameraByKey: [CameraKey: Int32] = [:]
        var last: (key: CameraKey, camera: Int32)?
        for position in 0..<count {
            // Fields read in place: copying a whole asset retains each of its parts.
            let id = assets[position].id
            let date = assets[position].effectiveDate
            sortKeys.append(date.sortKey)
            days.append(Self.day(of: date))
            assets[position].path.withBytes { path in
                pathBytes.append(contentsOf: path)
                let raw = Self.lastComponentInPlace(of: path)
                let base = ViewNaming.sanitized(Array(raw))
                files.append(LibraryFile(id: id, base: base, isFileName: raw.elementsEqual(base)))
            }
            pathStarts.append(pathBytes.count)
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
        self.files = files
        self.sortKeys = sortKeys
        self.days = days
        self.cameras = cameras
        self.cameraNames = cameraNames
        pathOrder = Self.pathOrder(files: files, pathBytes: pathBytes, pathStarts: pathStarts)
    }

    /// The `by-date` day of a date as YYYYMMDD.
    static func day(of date: CaptureDate) -> Int64 {
        Int64(date.year) * 10_000 + Int64(date.month) * 100 + Int64(date.day)
    }

    /// The last non-empty `/`-separated component of a path (`LibraryPath.fileName`
    /// without splitting the whole path).
    static func lastComponent(of path: UnsafeBufferPointer<UInt8>) -> [UInt8] { Array(lastComponentInPlace(of: path)) }

    /// `lastComponent(of:)` as a slice of `path` (no copy).
    @inline(__always)
    static func lastComponentInPlace(of path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = path.count
        while end > 0, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > 0, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return UnsafeBufferPointer(rebasing: path[start..<end])
    }

    /// Every asset position in path order (byte-wise, then id), asset `i`'s path being
    /// `pathBytes[pathStarts[i]..<pathStarts[i + 1]]`. A catalog read in path order is
    /// checked in one pass and not sorted again.
    static func pathOrder(files: [LibraryFile], pathBytes: [UInt8], pathStarts: [Int]) -> [Int] {
        var order = Array(files.indices)
        pathBytes.withUnsafeBufferPointer { bytes in
            let precedes = { (a: Int, b: Int) -> Bool in
                let (startA, endA, startB, endB) = (pathStarts[a], pathStarts[a + 1], pathStarts[b], pathStarts[b + 1])
                let common = min(endA - startA, endB - startB)
                var offset = 0
                while offset < common {
                    let (x, y) = (bytes[startA + offset], bytes[startB + offset])
                    if x != y { return x < y }
                    offset += 1
                }
                let (lengthA, lengthB) = (endA - startA, endB - startB)
                return lengthA == lengthB ? files[a].id < files[b].id : lengthA < lengthB
            }
            if !zip(order, order.dropFirst()).allSatisfy({ !precedes($1, $0) }) { order.sort(by: precedes) }
        }
        return order
    }
}

/// What naming one asset's files in the library views reads: its id and its sanitized file
/// name, and whether that is the file name itself (a file keeping it stores no name).
struct LibraryFile {
    let id: AssetID
    let base: [UInt8]
    let isFileName: Bool
}
