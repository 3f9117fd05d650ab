import PhotoCore

/// What photofs reads of a FileChooser call's `options` (`a{sv}`): the filters, which one
/// is current, whether several files or a directory are asked for. Every other option is
/// skipped here (and passed on unchanged when the call is forwarded).
struct ChooserOptions {
    var filters: [ChooserFilter] = []
    var currentFilter: ChooserFilter?
    var multiple = false
    var directory = false

    /// Reads the `a{sv}` at the message's position; nil when it is not well formed.
    static func read(_ message: BusMessage) -> ChooserOptions? {
        guard message.enter("a", "{sv}") else { return nil }
        var options = ChooserOptions()
        while message.enter("e", "sv") {
            guard let key = message.readString(), let next = message.peek(), next.type == "v" else { return nil }
            switch (key, next.contents) {
            case ("filters", "a(sa(us))"):
                guard message.enter("v", next.contents), message.enter("a", "(sa(us))") else { return nil }
                while let filter = readFilter(message) { options.filters.append(filter) }
                message.exit()
                message.exit()
            case ("current_filter", "(sa(us))"):
                guard message.enter("v", next.contents), let filter = readFilter(message) else { return nil }
                options.currentFilter = filter
                message.exit()
            case ("multiple", "b"), ("directory", "b"):
                guard message.enter("v", "b"), let value = message.readBool() else { return nil }
                if key == "multiple" { options.multiple = value } else { options.directory = value }
                message.exit()
            default:
                guard message.skip("v") else { return nil }
            }
            message.exit()
        }
        message.exit()
        return options
    }

    /// One `(sa(us))`: a name, then (0, glob) and (1, MIME type) pairs; nil at the end of
    /// the enclosing array or on a malformed filter.
    private static func readFilter(_ message: BusMessage) -> ChooserFilter? {
        guard message.enter("r", "sa(us)"), let name = message.readString(), message.enter("a", "(us)") else { return nil }
        var patterns: [ChooserFilter.Pattern] = []
        while message.enter("r", "us") {
            guard let kind = message.readUInt32(), let text = message.readString() else { return nil }
            // Unknown kinds become a glob nobody calls a photo, so the filter is not photo-only.
            patterns.append(kind == 1 ? .mime(text) : .glob(kind == 0 ? text : "?"))
            message.exit()
        }
        message.exit()
        message.exit()
        return ChooserFilter(name: name, patterns: patterns)
    }
}
