import Foundation
import MediaFormats
import PhotoCatalog
import PhotoCore

/// How assets look in `ls` and `show`: table cells for people, JSON objects for scripts.
/// The JSON shape is documented in the README ("Machine-readable output").
enum AssetFormatting {
    /// `Make Model` without the make repeated when the model already starts with it.
    static func camera(_ m: MediaMetadata) -> String {
        let make = m.make?.trimmingCharacters(in: .whitespaces) ?? ""
        let model = m.model?.trimmingCharacters(in: .whitespaces) ?? ""
        if model.lowercased().hasPrefix(make.lowercased()) { return model.isEmpty ? make : model }
        return [make, model].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A size in B, KB, MB or GB (powers of 1000, as the filter's `size:`).
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// Whether the path's bytes are valid UTF-8 (else JSON also carries them in base64).
    static func isUTF8(_ path: LibraryPath) -> Bool { String(validating: path.bytes, as: UTF8.self) != nil }

    /// The JSON object of one asset; with what the catalog stores of it (for `show`) it adds
    /// the fingerprint, location, redaction and problems.
    static func json(_ a: Asset, stored: (fingerprint: String, redaction: RedactionPlans)?) -> [String: Any] {
        let m = a.metadata
        var object: [String: Any] = [
            "id": a.id.rawValue,
            "path": a.path.display,
            "size": a.size,
            "format": m.format.rawValue,
            "mime": m.format.mime,
            "kind": m.format.kind.rawValue,
            "taken": a.effectiveDate.description,
            "dateSource": m.dateSource.rawValue,
            "hasExif": m.hasExif,
            "hasLocation": !m.locationSources.isEmpty || (m.location?.isValid ?? false),
        ]
        if !isUTF8(a.path) { object["pathBase64"] = Data(a.path.bytes).base64EncodedString() }
        if let v = m.make { object["make"] = v }
        if let v = m.model { object["model"] = v }
        if let v = m.lens { object["lens"] = v }
        if let v = m.orientation { object["orientation"] = v }
        if let v = m.width { object["width"] = v }
        if let v = m.height { object["height"] = v }
        if let (fingerprint, redaction) = stored {
            object["fingerprint"] = fingerprint
            object["mtimeNanoseconds"] = a.mtimeNanoseconds
            if let v = m.software { object["software"] = v }
            object["locationSources"] = m.locationSources.names
            if let loc = m.location {
                var l: [String: Any] = ["latitude": loc.latitude, "longitude": loc.longitude]
                if let alt = loc.altitude { l["altitude"] = alt }
                object["location"] = l
            }
            object["problems"] = m.problems
            object["redaction"] = [
                "strip": describe(redaction.strip),
                "coarse": describe(redaction.coarse),
                "private": describe(redaction.privatePlans.plan(for: .strip)),
                "privateKeepLocation": describe(redaction.privatePlans.plan(for: .keep)),
                "privateCoarse": describe(redaction.privatePlans.plan(for: .coarse)),
            ]
        }
        return object
    }

    /// "original bytes", "N patches over M bytes" or "withheld: reason".
    static func describe(_ plan: RedactionPlan) -> String {
        switch plan {
        case .patches(let patches) where patches.isEmpty: "original bytes (nothing to remove)"
        case .patches(let patches):
            "\(patches.count) patch\(patches.count == 1 ? "" : "es") over \(patches.reduce(0) { $0 + $1.bytes.count }) bytes"
        case .withheld(let reason): "withheld: \(reason)"
        }
    }

    /// Serialises JSON with sorted keys, pretty when `pretty`.
    static func encode(_ value: Any, pretty: Bool = true) -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
