import PhotoCore

/// A range of the `assets` table's keys, in the table's order (the bytes of `id`): from
/// `lower` (included) to `upper` (left out); nil is no bound. A full read split into parts
/// reads one range per thread.
struct IDRange: Equatable, Sendable {
    let lower: String?
    let upper: String?

    /// `parts` ranges that together hold every key once, split at ids evenly spaced over
    /// the 48-bit numbers ids spell. Ids are digits of SHA-256, so each range holds about
    /// as many rows as the others; a key that is no id (never written by photofs) still
    /// falls in exactly one range.
    static func split(into parts: Int) -> [IDRange] {
        guard parts > 1 else { return [IDRange(lower: nil, upper: nil)] }
        let bounds = (1..<parts).map { part in AssetID(number: UInt64(part) << 48 / UInt64(parts))!.rawValue }
        return (0..<parts).map { part in
            IDRange(lower: part == 0 ? nil : bounds[part - 1], upper: part == parts - 1 ? nil : bounds[part])
        }
    }

    /// The `WHERE` clause (with a leading space) that selects the range, "" for every row.
    var whereClause: String {
        switch (lower, upper) {
        case (nil, nil): ""
        case (.some, nil): " WHERE id >= ?1"
        case (nil, .some): " WHERE id < ?1"
        case (.some, .some): " WHERE id >= ?1 AND id < ?2"
        }
    }

    /// Binds the bounds `whereClause` names.
    func bind(to s: Statement) throws(CatalogError) {
        var index: Int32 = 1
        if let lower {
            try s.bind(index, lower)
            index += 1
        }
        if let upper { try s.bind(index, upper) }
    }
}
