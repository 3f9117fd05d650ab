import Testing

@testable import PhotoCore

/// Every key, positive and negative: each row names exactly which sample assets match.
@Suite struct FilterEvaluationTests {
    @Test(arguments: [
        // type:
        ("type:image", "ABDEFGH"),
        ("type:video", "C"),
        ("Type:VIDEO", "C"),
        ("type:live", ""),
        ("type:screenshot", "DGH"),
        ("type:panorama", "E"),
        // taken: (C has a QuickTime date, D/F/G only their mtime)
        ("taken:2024", "ACDH"),
        ("taken:2024-06", "AH"),
        ("taken:2024-06-01", "H"),
        ("taken:2023..2024", "ABCDH"),
        ("taken:2024-01..2024-03", "CD"),
        ("taken:2023-12-31..2024-01-01", "BC"),
        ("taken:>=2024-06-01", "AGH"),
        ("taken:>2024-06", "G"),
        ("taken:<2023", "EF"),
        ("taken:<=2023-12-31", "BEF"),
        ("taken:=2022", "E"),
        ("taken:2022..", "ABCDEGH"),
        ("taken:..2021", "F"),
        // make:, model:, camera:, lens:
        ("make:canon", "A"),
        ("make:CAN", "A"),
        ("make:nikon", ""),
        ("model:\"EOS 40D\"", "A"),
        ("model:'iphone 13'", "B"),
        ("camera:iphone", "B"),
        ("camera:\"canon canon eos\"", "A"),
        ("camera:samsung", "E"),
        ("camera:sm-g991", "E"),
        ("lens:f/1.6", "B"),
        ("lens:ef-s", "A"),
        // has:
        ("has:location", "AB"),
        ("has:exif", "ABEH"),
        ("has:date", "ABCEH"),
        // orientation:, width:, height:, megapixels:
        ("orientation:6", "A"),
        ("orientation:1", "BE"),
        ("width:>=4000", "BE"),
        ("width:1920", "CG"),
        ("width:1000..1920", "CFG"),
        ("height:<1000", "F"),
        ("height:1080..2592", "ACDG"),
        ("height:>3024", ""),
        ("megapixels:>=12", "BE"),
        ("megapixels:12", "B"),
        ("megapixels:10.1", "A"),
        ("megapixels:10", "A"),
        ("megapixels:<1", "F"),
        ("megapixels:2..6", "CDG"),
        // ext:, mime:
        ("ext:jpg", "AEH"),
        ("ext:.HEIC", "B"),
        ("ext:jpeg", ""),
        ("mime:image/png", "DFG"),
        ("mime:video/*", "C"),
        ("mime:IMAGE/JPEG", "AEH"),
        // size: (KB = 1000, KiB = 1024)
        ("size:>10MB", "CE"),
        ("size:1KiB", "F"),
        ("size:<=1KB", ""),
        ("size:>=2.4MB", "ABCE"),
        ("size:1MB..3MB", "B"),
        ("size:<1MiB", "DFGH"),
        ("size:0.5gb..", ""),
        // folder: (component-aware, case-sensitive)
        ("folder:Trips/2024", "AB"),
        ("folder:Trips", "ABC"),
        ("folder:Trips/20245", "C"),
        ("folder:Trips/202", ""),
        ("folder:trips", ""),
        ("folder:/Trips/2024/", "AB"),
        // name: (glob on the file name, case-insensitive)
        ("name:IMG_*", "ABH"),
        ("name:img_000?.*", "AB"),
        ("name:*.png", "DFG"),
        ("name:\"Screenshot *\"", "D"),
        ("name:[a-c]*", "CG"),
        ("name:[!a-z]*", ""),
        ("name:*[0-9].*", "ABDEH"),
        ("name:IMG", ""),
    ])
    func eachKey(filter: String, expected: String) throws {
        #expect(SampleAssets.letters(matching: try Filter(filter)) == expected)
    }

    @Test(arguments: [
        ("", "ABCDEFGH"),
        ("   ", "ABCDEFGH"),
        ("type:image -has:location", "DEFGH"),
        ("NOT has:exif", "CDFG"),
        ("type:video OR type:panorama", "CE"),
        ("(make:canon OR make:apple) taken:2024", "A"),
        ("-(type:image)", "C"),
        ("-(type:image OR has:date)", ""),
        ("type:image AND has:location", "AB"),
        ("camera:canon OR camera:apple OR type:video", "ABC"),
        ("NOT NOT has:location", "AB"),
        ("--has:location", "AB"),
        // OR binds loosest: has:location OR (has:exif AND -type:video AND -make:samsung)
        ("has:location OR has:exif -type:video -make:samsung", "ABH"),
        ("NOT(type:image)", "C"),
        ("-width:>0", "H"),
        ("(name:IMG_(1).jpg OR type:video)", "C"),
        ("name:*(*)* OR (type:video)", "C"),
    ])
    func combinations(filter: String, expected: String) throws {
        #expect(SampleAssets.letters(matching: try Filter(filter)) == expected)
    }

    @Test func emptyFilterIsEverything() throws {
        #expect(try Filter("").isEverything)
        #expect(try Filter(" \t").expression == .everything)
        #expect(!(try Filter("type:image").isEverything))
    }

    @Test(arguments: [
        ("IMG_*.jpg", "img_0001.JPG", true),
        ("IMG_*.jpg", "IMG_0001.jpeg", false),
        ("*a*b*c", "xxaxxbxxc", true),
        ("*a*b*c", "xxaxxbxxcx", false),
        ("a?c", "abc", true),
        ("a?c", "ac", false),
        ("[^a]*", "bcd", true),
        ("[]]x", "]x", true),
        ("\\*x", "*x", true),
        ("\\*x", "ax", false),
        ("*", "", true),
        ("é*", "École.JPG", true),
        ("é*", "ecole.jpg", false),
        ("é*", "étude.jpg", true),
        ("********************a", String(repeating: "b", count: 200), false),
    ])
    func globs(pattern: String, name: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(name) == expected)
    }
}
