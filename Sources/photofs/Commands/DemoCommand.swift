import PhotoCore
import PhotoSamples
import SystemKit

/// `photofs demo`: generates a small sample library, catalogs it, mounts it and prints
/// what to try, so a new user sees photofs work in one command.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        summary: "generate a sample library, mount it and show what to try",
        usage: ["demo [--library DIR] [--count N] [--seed S] [MOUNTPOINT]"],
        details: """
            Writes about 40 generated photos (EXIF dates, several cameras, GPS on about half) \
            into a new directory under $TMPDIR (or DIR), catalogs them, mounts the library on \
            MOUNTPOINT (default: a new directory beside the library) and prints commands to \
            try. Nothing outside those directories is touched; the demo's catalog lives beside \
            a temporary library.
            """,
        options: [
            .value("library", "DIR", "write the sample library here instead of a new temporary directory"),
            .value("count", short: "n", "N", "number of photos (default 40)"),
            .value("seed", "S", "seed of the generator (default 1)"),
        ]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.count <= 1 else { throw .usage("demo takes at most one mountpoint") }
        let count = try GenerateCommand.intOption(arguments, "count", default: 40, range: 1...100_000)
        let seed = try GenerateCommand.seedOption(arguments)
        let output = environment.output

        let base = try temporaryDirectory(environment)
        let library = arguments.value("library") ?? base + "/library"
        let mountpoint = arguments.positionals.first ?? base + "/mnt"
        let catalog = base + "/catalog.sqlite"
        if arguments.positionals.isEmpty { try GenerateCommand.makeDirectories(mountpoint) }

        let summary = try GenerateCommand.write(
            SampleLibrary(seed: seed, count: count), into: library, force: false, environment: environment)
        output.line("Sample library: \(library)")
        output.line(
            "  \(summary.files) photos in \(summary.folders) folders, \(summary.withExif) with EXIF, \(summary.withLocation) with GPS")

        var indexed = false
        if let index = CommandTable.named("index") {
            var indexArguments = [library]
            if index.options.contains(where: { $0.name == "catalog" }) { indexArguments += ["--catalog", catalog] }
            let code = try run(index, indexArguments, environment)
            guard code == .success else { return code }
            indexed = true
        }

        // MOUNT: `photofs mount` (branch fuse) is called here when the command table has it,
        // with the documented interface: `mount [--catalog PATH] LIBRARY MOUNTPOINT`,
        // going to the background once the mount is ready. Adjust the arguments here if
        // the mount command's interface differs.
        var mounted = false
        if let mount = CommandTable.named("mount") {
            var mountArguments = [library, mountpoint]
            if mount.options.contains(where: { $0.name == "catalog" }) { mountArguments += ["--catalog", catalog] }
            let code = try run(mount, mountArguments, environment)
            guard code == .success else { return code }
            mounted = true
        }

        output.line("")
        output.out(nextSteps(library: library, mountpoint: mountpoint, catalog: catalog, indexed: indexed, mounted: mounted))
        return .success
    }

    /// Runs another command of the table as if it had been typed.
    private static func run(_ command: Command, _ arguments: [String], _ environment: Environment) throws(CLIError) -> ExitCode {
        let parsed = try ArgumentParser.parse(arguments, options: command.options, commandName: command.name)
        return try command.run(parsed, environment)
    }

    /// A fresh `photofs-demo-XXXXXX` directory under $TMPDIR (or /tmp).
    private static func temporaryDirectory(_ environment: Environment) throws(CLIError) -> String {
        let parent = environment.variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        do throws(Errno) {
            return try FileSystem.makeTemporaryDirectory(prefix: parent + "/photofs-demo-")
        } catch {
            throw .failure("cannot create a temporary directory in \(parent): \(error).")
        }
    }

    private static func nextSteps(library: String, mountpoint: String, catalog: String, indexed: Bool, mounted: Bool) -> String {
        let q = shellQuoted
        var text = ""
        if mounted {
            text += """
                Mounted on \(mountpoint). Try:
                  ls \(q(mountpoint))/library/by-camera
                  ls -R \(q(mountpoint))/library/by-date | head -30
                  ls \(q(mountpoint + "/library/folders/2023/Summer trip"))
                  exiftool -a -G1 -gps:all \(q(mountpoint + "/library/folders/Camera Roll/IMG_0001.jpg"))
                Give an app a limited view (GPS stripped):
                  echo 'app add editor --filter "type:image" --location strip' > \(q(mountpoint))/.picker
                  echo 'select editor "Camera Roll/IMG_0001.jpg" "2023/Summer trip/IMG 0002.jpg"' > \(q(mountpoint))/.picker
                  ls \(q(mountpoint))/apps/editor
                  exiftool -a -G1 -gps:all \(q(mountpoint))/apps/editor/*

                \(tour(mountpoint: mountpoint, catalog: catalog))

                When done:
                  photofs unmount \(q(mountpoint))

                """
        } else {
            text += "Mounting is not available in this build; the library is ready at \(library).\n"
            if indexed {
                text += """
                    It is catalogued in \(catalog). Try:
                      photofs ls --catalog \(q(catalog)) 'make:canon'
                      photofs ls --catalog \(q(catalog)) 'has:location taken:2023'

                    """
            }
            text += """
                Try:
                  find \(q(library)) -type f | head
                  exiftool -r -T -Directory -FileName -Make -Model -DateTimeOriginal \(q(library)) | head
                  exiftool -r -q -if '$GPSLatitude' -p '$Directory/$FileName has a location' \(q(library))

                """
        }
        return text
    }

    /// The guided tour of picking, running an app, its requests and the report, each step a
    /// command that works as typed once the demo is mounted.
    static func tour(mountpoint: String, catalog: String) -> String {
        let m = shellQuoted(mountpoint)
        let c = shellQuoted(catalog)
        let ask = #"echo "media=image limit=2" > "$PHOTOFS_DIR/.request"; cat "$PHOTOFS_DIR/.request""#
        return """
            A guided tour:
              1. Pick photos for the app in your browser (add --terminal to pick in the terminal):
                   photofs pick --catalog \(c) editor
              2. Run a program that sees only the app's photos (at ~/Pictures, in a sandbox):
                   photofs run --mountpoint \(m) editor -- sh -c 'ls -l "$PHOTOFS_DIR"'
              3. Let the app ask for photos itself; its request waits until you answer it:
                   photofs run --mountpoint \(m) editor -- sh -c '\(ask)' &
                   photofs requests --mountpoint \(m)
                   photofs pick --catalog \(c) editor
              4. See which app read which photo, and revoke with one click:
                   photofs log --catalog \(c)
                   photofs report --catalog \(c)
            """
    }

    /// `text` in single quotes when it holds anything a shell would split or expand.
    private static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@".contains($0) }
        return plain ? text : "'" + text.replacingOccurrences("'", "'\\''") + "'"
    }
}

extension String {
    /// The string with every `target` replaced by `replacement` (no Foundation needed).
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
