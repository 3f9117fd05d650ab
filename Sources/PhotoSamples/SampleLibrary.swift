import MediaFormats

/// A plausible photo library made from a seed: dated event folders (`2023/Summer trip`)
/// from various cameras, a phone's `Camera Roll`, messenger images and scans without
/// EXIF; GPS on about half of the photos; deliberate basename collisions across folders
/// (`IMG_0001.jpg` in `Camera Roll` and in the first event) and a name with a space.
///
/// The plan (paths and metadata) is computed up front and is cheap; the bytes of each
/// photo are made on demand, so callers can write thousands of files in parallel.
/// The same seed and count always give the same library, byte for byte.
public struct SampleLibrary: Sendable {
    public let seed: UInt64
    public let photos: [SamplePhoto]
    /// Width × height of an ordinary photo; panoramas are three times as wide.
    public static let photoSize = (width: 160, height: 120)

    public init(seed: UInt64, count: Int) {
        self.seed = seed
        var planner = Planner(seed: seed)
        photos = planner.plan(count: max(count, 0))
    }

    /// The file of photo `index`.
    public func file(at index: Int, encoder: JPEGEncoder = JPEGEncoder()) throws(JPEGEncoderError) -> SampleFile {
        SampleFile(relativePath: photos[index].relativePath, bytes: try Self.bytes(of: photos[index], encoder: encoder))
    }

    /// Every file, in plan order.
    public func files(encoder: JPEGEncoder = JPEGEncoder()) throws(JPEGEncoderError) -> [SampleFile] {
        var result: [SampleFile] = []
        for index in photos.indices { result.append(try file(at: index, encoder: encoder)) }
        return result
    }

    /// The JPEG file for one planned photo.
    public static func bytes(of photo: SamplePhoto, encoder: JPEGEncoder) throws(JPEGEncoderError) -> [UInt8] {
        let image = ProceduralPicture.draw(seed: photo.pictureSeed, width: photo.width, height: photo.height)
        guard photo.hasExif, let camera = photo.camera else {
            return try encoder.encode(image, metadata: JPEGMetadata(jfif: true))
        }
        let fields = ExifFields(
            make: camera.make, model: camera.model, orientation: photo.orientation, software: camera.software, taken: photo.taken,
            pixelWidth: UInt32(photo.width), pixelHeight: UInt32(photo.height), lensModel: camera.lens, location: photo.location)
        let exif = ExifBuilder(byteOrder: camera.byteOrder).build(fields).bytes
        let xmp = photo.hasXMP ? XMPPacket.make(taken: photo.taken, location: photo.location, creatorTool: camera.software) : nil
        return try encoder.encode(image, metadata: JPEGMetadata(exif: exif, xmp: xmp))
    }
}

/// Lays out folders and photos; all choices come from one seeded generator.
private struct Planner {
    var random: SeededRandom
    var photos: [SamplePhoto] = []
    var usedFolders: Set<String> = []
    var pictureCounter: UInt64 = 0
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
    }

    static let events: [(name: String, months: ClosedRange<Int>)] = [
        ("Summer trip", 6...8), ("Christmas", 12...12), ("Ski week", 1...3), ("Birthday party", 1...12), ("Hiking", 4...10),
        ("Wedding", 5...9), ("City break", 3...11), ("Beach weekend", 6...9), ("Garden", 4...9), ("Concert", 1...12),
    ]

    mutating func plan(count: Int) -> [SamplePhoto] {
        // Shares of the library; folders are capped so four-digit counters never repeat
        // inside one folder.
        let messenger = count >= 10 ? min(max(1, count / 16), 5000) : 0
        let scans = count >= 30 ? min(max(1, count / 40), 2000) : 0
        let cameraRoll = count >= 4 ? min(count * 3 / 10, 5000) : 0
        var events = count - messenger - scans - cameraRoll

        // The first event starts its counter at 1 like the camera roll: same basenames in
        // two folders. It also holds the one name with a space.
        // Small libraries get small events, so a demo still shows many cameras.
        let sizes = count < 200 ? 4...8 : 8...60
        let first = min(events, count < 200 ? 12 : 24)
        addEvent(name: "Summer trip", year: 2023, months: 7...7, camera: .canonEOS40D, size: first, counterStart: 1, spacedName: true)
        events -= first
        if cameraRoll > 0 { addCameraRoll(size: cameraRoll) }
        var eventNumber = 0
        while events > 0 {
            var size = random.int(sizes)
            if events - size < sizes.lowerBound { size = events }
            let event = random.pick(Self.events)
            // Cameras take turns (Pixel, Nikon, ... first) rather than being drawn.
            let camera = SampleCamera.all[(eventNumber + 2) % SampleCamera.all.count]
            addEvent(
                name: event.name, year: random.int(2019...2024), months: event.months, camera: camera, size: size,
                counterStart: random.int(1...8000), spacedName: false)
            events -= size
            eventNumber += 1
        }
        if messenger > 0 { addUnattributed(folder: "WhatsApp Images", size: messenger, messenger: true) }
        if scans > 0 { addUnattributed(folder: "Scans", size: scans, messenger: false) }
        return photos
    }

    mutating func uniqueFolder(_ wanted: String) -> String {
        var folder = wanted
        var n = 2
        while usedFolders.contains(folder) {
            folder = "\(wanted) \(n)"
            n += 1
        }
        usedFolders.insert(folder)
        return folder
    }

    mutating func nextPictureSeed() -> UInt64 {
        pictureCounter += 1
        return seed &* 0x9E37_79B9_7F4A_7C15 ^ pictureCounter
    }

    mutating func addEvent(
        name: String, year: Int, months: ClosedRange<Int>, camera: SampleCamera, size: Int, counterStart: Int, spacedName: Bool
    ) {
        guard size > 0 else { return }
        let folder = uniqueFolder("\(year)/\(name)")
        let place = random.pick(SamplePlace.all)
        let month = random.int(months)
        var moment = unixSeconds(year: year, month: month, day: random.int(1...25), hour: random.int(8...17), minute: random.int(0...59))
        for index in 0..<size {
            moment += Int64(random.int(5...2400))
            let counter = (counterStart + index - 1) % 9999 + 1
            var name = fileName(camera.naming, counter: counter, moment: moment, offset: place.utcOffsetMinutes)
            if spacedName && index == 1 { name = "IMG \(digits(counter, 4)).jpg" }
            addPhoto(path: folder + "/" + name, camera: camera, localMoment: moment, place: place)
        }
    }

    mutating func addCameraRoll(size: Int) {
        let folder = uniqueFolder("Camera Roll")
        var moment = unixSeconds(year: 2021, month: 1, day: 3, hour: 9, minute: 12)
        // The phone roll spans about four years, so its steps average a few hours.
        let step = max(60, 4 * 365 * 86_400 / max(size, 1))
        let homes = [SamplePlace.all[10], SamplePlace.all[11], SamplePlace.all[0]]
        for index in 0..<size {
            moment += Int64(random.int(30...(2 * step)))
            let name = fileName(SampleCamera.iPhone13.naming, counter: index % 9999 + 1, moment: moment, offset: 0)
            addPhoto(path: folder + "/" + name, camera: .iPhone13, localMoment: moment, place: random.pick(homes))
        }
    }

    mutating func addPhoto(path: String, camera: SampleCamera, localMoment: Int64, place: SamplePlace) {
        let offset = camera.writesOffset ? place.utcOffsetMinutes : nil
        var taken = CaptureDate(unixSeconds: localMoment)
        taken.utcOffsetMinutes = offset
        var location: GeoLocation?
        if random.chance(camera.gpsRate) {
            // Within about a kilometre of the place.
            location = GeoLocation(
                latitude: place.latitude + Double(random.int(-9000...9000)) / 1_000_000,
                longitude: place.longitude + Double(random.int(-9000...9000)) / 1_000_000,
                altitude: place.altitude + Double(random.int(-500...500)) / 100)
        }
        let roll = random.int(0...99)
        let orientation: UInt16 = camera.isPhone ? (roll < 70 ? 1 : roll < 95 ? 6 : 3) : (roll < 80 ? 1 : roll < 90 ? 8 : roll < 97 ? 6 : 3)
        let panorama = camera.isPhone && random.chance(0.03)
        let size = SampleLibrary.photoSize
        photos.append(
            SamplePhoto(
                relativePath: path, camera: camera, taken: taken, hasExif: true, location: location,
                hasXMP: camera.isPhone && location != nil && random.chance(0.15), orientation: orientation,
                width: panorama ? size.width * 3 : size.width, height: size.height, pictureSeed: nextPictureSeed(),
                modificationTime: localMoment - Int64((offset ?? 0) * 60)))
    }

    /// Files without EXIF: messenger images (they strip metadata) and scans.
    mutating func addUnattributed(folder wanted: String, size: Int, messenger: Bool) {
        let folder = uniqueFolder(wanted)
        var moment = unixSeconds(year: 2020, month: 5, day: 1, hour: 10, minute: 0)
        for index in 0..<size {
            moment += Int64(random.int(600...400_000))
            let date = CaptureDate(unixSeconds: moment)
            let name =
                messenger
                ? "IMG-\(digits(date.year, 4))\(digits(date.month))\(digits(date.day))-WA\(digits(index % 10000, 4)).jpg"
                : "scan_\(digits(index % 10000, 4)).jpg"
            let size = SampleLibrary.photoSize
            photos.append(
                SamplePhoto(
                    relativePath: folder + "/" + name, camera: nil, taken: date, hasExif: false, location: nil, hasXMP: false,
                    orientation: nil, width: size.width, height: size.height, pictureSeed: nextPictureSeed(), modificationTime: moment))
        }
    }

    func fileName(_ naming: SampleCamera.Naming, counter: Int, moment: Int64, offset: Int) -> String {
        let d = CaptureDate(unixSeconds: moment)
        let day = "\(digits(d.year, 4))\(digits(d.month))\(digits(d.day))"
        let time = "\(digits(d.hour))\(digits(d.minute))\(digits(d.second))"
        switch naming {
        case .counter(let prefix, let ext): return prefix + digits(counter, 4) + ext
        case .pixel: return "PXL_\(day)_\(time)\(digits(Int(moment % 1000), 3)).jpg"
        case .dateTime: return "\(day)_\(time).jpg"
        }
    }
}

/// Seconds since the epoch of a civil date-time taken as UTC (proleptic Gregorian).
func unixSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int64 {
    // Count years from March so the leap day falls at the end of the counting year.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
}
