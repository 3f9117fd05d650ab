import SystemKit

/// The desktop's own FileChooser backend (gtk, gnome, kde...), which gets every dialog
/// that is not a photo pick: named on the command line, else found the way
/// xdg-desktop-portal finds backends. Newer portals read `portals.conf`
/// (`org.freedesktop.impl.portal.FileChooser=photofs;gtk`: the first entry that is not
/// photofs), older ones (1.16) the `*.portal` files' `UseIn` against `XDG_CURRENT_DESKTOP`.
struct DesktopChooser: Equatable, Sendable {
    /// The backend's bus name (`org.freedesktop.impl.portal.desktop.gtk`).
    let busName: String
    /// Where it was found (`--desktop`, a portals.conf or a .portal file), for the log.
    let source: String

    static let ownBusName = "org.freedesktop.impl.portal.desktop.photofs"
    static let interface = "org.freedesktop.impl.portal.FileChooser"

    /// `--desktop NAME`: a short name (`gtk`) or a full bus name.
    static func named(_ name: String, variables: [String: String]) -> DesktopChooser {
        if name.contains(".") { return DesktopChooser(busName: name, source: "--desktop") }
        let portal = portalFiles(variables).first { $0.name == name }
        return DesktopChooser(busName: portal?.busName ?? "org.freedesktop.impl.portal.desktop." + name, source: "--desktop")
    }

    /// The backend this desktop would use for file dialogs without photofs; nil when none is installed.
    static func find(variables: [String: String]) -> DesktopChooser? {
        let desktops = (variables["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        let portals = portalFiles(variables)
        if let (names, file) = configured(desktops: desktops, variables: variables) {
            for name in names where name != "photofs" && name != "*" && name != "none" {
                if let portal = portals.first(where: { $0.name == name }), portal.fileChooser {
                    return DesktopChooser(busName: portal.busName, source: file)
                }
            }
        }
        let choosers = portals.filter { $0.fileChooser && $0.busName != ownBusName }
        for desktop in desktops {
            if let portal = choosers.first(where: { $0.useIn.contains(desktop) }) {
                return DesktopChooser(busName: portal.busName, source: portal.path)
            }
        }
        // As xdg-desktop-portal falls back: gtk's chooser works on any desktop.
        if let portal = choosers.first(where: { $0.name == "gtk" }) ?? choosers.first {
            return DesktopChooser(busName: portal.busName, source: portal.path)
        }
        return nil
    }

    /// One `*.portal` file.
    struct PortalFile {
        let name: String
        let path: String
        let busName: String
        let fileChooser: Bool
        let useIn: [String]
    }

    /// The installed `*.portal` files, by name: `XDG_DESKTOP_PORTAL_DIR` when set (as the
    /// portal itself), else each data directory's `xdg-desktop-portal/portals`.
    static func portalFiles(_ variables: [String: String]) -> [PortalFile] {
        let directories: [String]
        if let directory = variables["XDG_DESKTOP_PORTAL_DIR"], !directory.isEmpty {
            directories = [directory]
        } else {
            directories = dataDirectories(variables).map { $0 + "/xdg-desktop-portal/portals" }
        }
        var found: [PortalFile] = []
        for directory in directories {
            for file in listing(directory) where file.hasSuffix(".portal") {
                let name = String(file.dropLast(7))
                guard !found.contains(where: { $0.name == name }), let text = readText(directory + "/" + file) else { continue }
                let keys = iniSection("portal", text)
                guard let busName = keys["DBusName"] else { continue }
                let interfaces = (keys["Interfaces"] ?? "").split(separator: ";").map(String.init)
                let useIn = (keys["UseIn"] ?? "").split(separator: ";").map { $0.lowercased() }
                found.append(
                    PortalFile(
                        name: name, path: directory + "/" + file, busName: busName, fileChooser: interfaces.contains(interface),
                        useIn: useIn))
            }
        }
        return found.sorted { $0.name < $1.name }
    }

    /// The FileChooser list of the first `DESKTOP-portals.conf` or `portals.conf` that has
    /// one (its own key, else `default`), in the portal's search order.
    static func configured(desktops: [String], variables: [String: String]) -> (names: [String], file: String)? {
        let home = variables["HOME"] ?? ""
        let configHome = variables["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let configDirs = (variables["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg").split(separator: ":").map(
            String.init)
        let roots = [configHome] + configDirs + dataDirectories(variables)
        let names = desktops.map { $0 + "-portals.conf" } + ["portals.conf"]
        for root in roots {
            for name in names {
                let path = root + "/xdg-desktop-portal/" + name
                guard let text = readText(path) else { continue }
                let keys = iniSection("preferred", text)
                if let list = keys[interface] ?? keys["default"] {
                    return (list.split(separator: ";").map { $0.trimmingCharacters(in: " ") }, path)
                }
            }
        }
        return nil
    }

    private static func dataDirectories(_ variables: [String: String]) -> [String] {
        let dirs = variables["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return dirs.split(separator: ":").map(String.init)
    }

    /// The `key=value` lines of `[section]` in an ini-style file.
    static func iniSection(_ section: String, _ text: String) -> [String: String] {
        var inside = false
        var keys: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: " \t")
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("[") {
                inside = line == "[\(section)]"
                continue
            }
            guard inside, let equals = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<equals]).trimmingCharacters(in: " \t")] = String(line[line.index(after: equals)...]).trimmingCharacters(
                in: " \t")
        }
        return keys
    }

    private static func listing(_ directory: String) -> [String] {
        guard let names = try? FileSystem.names(inDirectory: directory) else { return [] }
        return names.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    private static func readText(_ path: String) -> String? {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { descriptor.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while bytes.count < 1 << 20 {
            let count = (try? descriptor.read(into: &buffer)) ?? 0
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
