import MediaFormats
import PhotoCore

/// Reading and writing rows of the `assets` table. Column order is fixed by `columns`;
/// reads and binds use the same positions. The plans live in `asset_plans` (`PlanRows`),
/// written and deleted with the row; the row keeps which of them withhold the file.
enum AssetRows {
    static let columns = """
        id, fingerprint, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, \
        date_source, make, model, lens, orientation, width, height, latitude, longitude, altitude, \
        has_exif, software, says_screenshot, problems, withheld, indexed_at_ns, ctime_ns, location_sources
        """

    static let insertSQL = "INSERT OR REPLACE INTO assets(\(columns)) VALUES(" + (1...27).map { "?\($0)" }.joined(separator: ",") + ")"

    /// The columns a snapshot reads: `columns` at the same positions, with those only the
    /// catalog uses (fingerprint, indexed_at_ns) as NULL, so SQLite does not copy them out.
    static let snapshotColumns = """
        id, NULL, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, \
        date_source, make, model, lens, orientation, width, height, latitude, longitude, altitude, \
        has_exif, software, says_screenshot, problems, withheld, NULL, ctime_ns, location_sources
        """

    /// Every asset whose id is in `range`, in id order, in one query. An asset equal to one
    /// in `previous` (found by `previousByID`, its positions there) is that value, sharing
    /// its path, texts and plans: after a re-index only what changed is new in memory, so
    /// the allocator is not left with the old snapshot's pages pinned by scattered survivors.
    /// Paths go into the buffers of one `PathArena` (a path unchanged since `previous` is
    /// that path, not a new copy), camera texts are shared (through `cameras` with the
    /// other parts of the same read): no allocation per row.
    static func assets(
        in db: Database, ids range: IDRange, reusing previous: ChunkedArray<Asset>, previousByID: [AssetID: Int32],
        cameras: SharedCameras?
    ) throws(CatalogError) -> ChunkedArray<Asset> {
        let s = try db.statement("SELECT \(snapshotColumns) FROM assets" + range.whereClause)
        defer { s.reset() }
        try range.bind(to: s)
        var assets = ChunkedArray<Asset>()
        var interner = TextInterner(pathChunkBytes: 64 * 1024, shared: cameras)
        let names = StoredNames.standard
        while try s.step() {
            guard !previousByID.isEmpty else {
                assets.append(try readAsset(s, interner: &interner, names: names))
                continue
            }
            let known = s.withTextBytes(0) { AssetID(utf8: $0) }.flatMap { previousByID[$0] }.map { Int($0) }
            let asset = try readAsset(s, interner: &interner, names: names, knownPath: known.map { previous[$0].path })
            if let known, previous[known] == asset {
                assets.append(previous[known])
            } else {
                assets.append(asset)
            }
        }
        return assets
    }

    /// The records a `WHERE` clause selects, with its parameters bound by `bind`, and their
    /// plans unless `plans` is false (a snapshot update needs only the assets).
    static func records(
        in db: Database, where clause: String, plans: Bool = true, bind: (Statement) throws(CatalogError) -> Void
    ) throws(CatalogError) -> [AssetRecord] {
        let s = try db.statement("SELECT \(columns) FROM assets WHERE \(clause)")
        defer { s.reset() }
        try bind(s)
        var records: [AssetRecord] = []
        var interner = TextInterner()
        while try s.step() { records.append(try read(s, interner: &interner)) }
        s.reset()
        guard plans else { return records }
        for index in records.indices { records[index].redaction = try PlanRows.plans(of: records[index].asset, in: db) }
        return records
    }

    /// Inserts or replaces one row and its plan rows (the id decides; a row holding the same
    /// path must be deleted first, or the UNIQUE path constraint refuses the insert).
    ///
    /// `isNew` says that no row has held this id or path (an index into an empty catalog
    /// nobody else writes): no plan rows of a moved asset are looked for.
    static func write(_ record: AssetRecord, in db: Database, isNew: Bool = false) throws(CatalogError) {
        try PlanRows.write(record, in: db, isNew: isNew)
        let s = try db.statement(insertSQL)
        let a = record.asset
        let m = a.metadata
        try s.bind(1, a.id.rawValue)
        try s.bind(2, record.fingerprint)
        try s.bind(3, a.path.bytes)
        try s.bind(4, a.size)
        try s.bind(5, a.mtimeNanoseconds)
        try s.bind(6, Int64(bitPattern: a.inode))
        try s.bind(7, m.format.rawValue)
        try s.bind(8, m.captureDate?.sortKey)
        try s.bind(9, m.captureDate?.utcOffsetMinutes)
        try s.bind(10, m.dateSource.rawValue)
        try s.bind(11, m.make)
        try s.bind(12, m.model)
        try s.bind(13, m.lens)
        try s.bind(14, m.orientation)
        try s.bind(15, m.width)
        try s.bind(16, m.height)
        try s.bind(17, m.location?.latitude)
        try s.bind(18, m.location?.longitude)
        try s.bind(19, m.location?.altitude)
        try s.bind(20, m.hasExif)
        try s.bind(21, m.software)
        try s.bind(22, m.saysScreenshot)
        // One problem per line: a line break inside a problem would split it on the way back.
        try s.bind(23, m.problems.map { String(decoding: $0.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self) }.joined(separator: "\n"))
        try s.bind(24, Int64(WithheldPlans(record.redaction).rawValue))
        try s.bind(25, record.indexedAtNanoseconds)
        try s.bind(26, a.ctimeNanoseconds)
        try s.bind(27, Int64(m.locationSources.rawValue))
        try s.run()
    }

    /// Deletes the row with this id and its plan rows, if any.
    static func delete(_ id: AssetID, in db: Database) throws(CatalogError) {
        try PlanRows.delete(id, in: db)
        let s = try db.statement("DELETE FROM assets WHERE id = ?1")
        try s.bind(1, id.rawValue)
        try s.run()
    }

    /// Decodes the current row of a statement that selected `columns`, with its plans not
    /// yet read (`PlanRows.plans(of:in:)` reads them).
    static func read(_ s: Statement, interner: inout TextInterner) throws(CatalogError) -> AssetRecord {
        let asset = try readAsset(s, interner: &interner)
        var record = AssetRecord(asset: asset, fingerprint: s.text(1), indexedAtNanoseconds: s.int64(24), redaction: .notPlanned)
        // The record's initializer derives `withheld` from its (not yet read) plans: keep the row's.
        record.asset.withheld = asset.withheld
        return record
    }

    /// Decodes the asset of the current row (not the catalog-only columns); of the plans it
    /// has only what they withhold (the row's `withheld` bits).
    /// `knownPath`, when it has the row's path bytes, is shared rather than copied.
    static func readAsset(
        _ s: Statement, interner: inout TextInterner, names: StoredNames = .standard, knownPath: LibraryPath? = nil
    ) throws(CatalogError) -> Asset {
        guard let id = s.withTextBytes(0, { AssetID(utf8: $0) }) else {
            throw .badStoredValue(column: "assets.id", detail: "not an asset id: \(s.text(0))")
        }
        guard let format = s.withTextBytes(6, { names.format($0) }) else {
            throw .badStoredValue(column: "assets.format", detail: "unknown format \(s.text(6)) for \(id.rawValue)")
        }
        // A key that does not decode (a year before 0 from a strange clock) reads as no date.
        let captureDate = s.optionalInt64(7).flatMap { CaptureDate(sortKey: $0, utcOffsetMinutes: s.optionalInt(8)) }
        let dateSource = s.withTextBytes(9) { names.dateSource($0) } ?? .fileModification
        var location: GeoLocation?
        if let latitude = s.optionalDouble(16), let longitude = s.optionalDouble(17) {
            location = GeoLocation(latitude: latitude, longitude: longitude, altitude: s.optionalDouble(18))
        }
        let problems = s.withTextBytes(22) { bytes -> [String] in
            bytes.isEmpty ? [] : bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        var metadata = MediaMetadata(
            format: format, captureDate: captureDate, dateSource: dateSource,
            orientation: s.optionalInt(13), width: s.optionalInt(14), height: s.optionalInt(15),
            location: location, locationSources: LocationSources(rawValue: UInt32(truncatingIfNeeded: s.int64(26))),
            hasExif: s.int64(19) != 0, saysScreenshot: s.int64(21) != 0, problems: problems)
        metadata.texts = cameraTexts(s, &interner)
        let withheld = WithheldPlans(rawValue: UInt8(truncatingIfNeeded: s.int64(23)))
        let path = s.withBlobBytes(2) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            if let knownPath, knownPath.withBytes({ $0.elementsEqual(bytes) }) { return knownPath }
            return interner.path(bytes)
        }
        return Asset(
            id: id, path: path, size: s.int64(3), mtimeNanoseconds: s.int64(4),
            inode: UInt64(bitPattern: s.int64(5)), ctimeNanoseconds: s.int64(25), metadata: metadata, withheld: withheld)
    }

    /// The camera texts of the current row (make, model, lens, software), shared with
    /// earlier rows that have the same bytes: found by the columns' bytes, so a camera seen
    /// before costs no `String` and no allocation.
    private static func cameraTexts(_ s: Statement, _ interner: inout TextInterner) -> CameraTexts {
        // Each column's bytes fetched once (a NULL has no address): SQLite's column calls
        // are a good part of the read.
        s.withTextBytes(10) { make in
            s.withTextBytes(11) { model in
                s.withTextBytes(12) { lens in
                    s.withTextBytes(20) { software in
                        let columns = [make, model, lens, software]
                        if columns.allSatisfy({ $0.baseAddress == nil }) { return .none }
                        var hash = TextHash()
                        for column in columns { hash.combine(column) }
                        func same(_ text: String?, _ column: UnsafeBufferPointer<UInt8>) -> Bool {
                            guard let text else { return column.baseAddress == nil }
                            // In place: the generic `elementsEqual` over a string's UTF-8 view was 4% of the read.
                            return column.baseAddress != nil
                                && (text.utf8.withContiguousStorageIfAvailable { LibraryPath.order($0, column) == 0 }
                                    ?? text.utf8.elementsEqual(column))
                        }
                        if let known = interner.camera(
                            hash: hash.value,
                            where: { same($0.make, make) && same($0.model, model) && same($0.lens, lens) && same($0.software, software) })
                        {
                            return known
                        }
                        func text(_ column: UnsafeBufferPointer<UInt8>) -> String? {
                            column.baseAddress == nil ? nil : interner.text(column)
                        }
                        let texts = CameraTexts(make: text(make), model: text(model), lens: text(lens), software: text(software))
                        return interner.remember(texts, hash: hash.value)
                    }
                }
            }
        }
    }
}

extension CaptureDate {
    /// The date back from its `sortKey` (YYYYMMDDHHMMSS); nil when a field is out of range.
    init?(sortKey: Int64, utcOffsetMinutes: Int?) {
        guard sortKey >= 0 else { return nil }
        let second = Int(sortKey % 100)
        let minute = Int(sortKey / 100 % 100)
        let hour = Int(sortKey / 10_000 % 100)
        let day = Int(sortKey / 1_000_000 % 100)
        let month = Int(sortKey / 100_000_000 % 100)
        let year = Int(sortKey / 10_000_000_000)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60, year < 1_000_000 else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, utcOffsetMinutes: utcOffsetMinutes)
    }
}
