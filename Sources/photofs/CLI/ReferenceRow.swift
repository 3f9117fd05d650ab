/// One documented item of a command language (a `.picker` command, a `.request` item): how
/// it is written and what it does, rendered alike by `photofs help` and the man page.
struct ReferenceRow: Sendable {
    let synopsis: String
    let meaning: String
    /// A line the language's own parser accepts (checked by the man page test), when the
    /// reference shows one per row.
    var example: String? = nil
}
