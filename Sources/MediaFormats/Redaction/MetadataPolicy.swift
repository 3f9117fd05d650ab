/// What an app may learn of who took a photo, with what, and what was written about it.
public enum MetadataPolicy: String, Sendable, CaseIterable, Codable {
    /// The metadata as the file has it (apart from location, which `LocationPolicy` decides).
    case keep
    /// Identity and free text blanked in place (see `IdentityTags`): serial numbers and
    /// unique ids, owner/artist/creator names and contacts, face and person names,
    /// comments, captions, descriptions, keywords and titles, time-zone offsets, maker
    /// notes. Orientation, capture date/time, make/model/lens model, exposure, dimensions
    /// and colour profile stay.
    case `private`
}
