// swift-tools-version:6.0
import PackageDescription

// Dependencies point inward: every module depends on PhotoCore, PhotoCore on nothing,
// and each C library is imported by exactly one Swift module.
let package = Package(
    name: "photofs",
    products: [
        .executable(name: "photofs", targets: ["photofs"])
    ],
    targets: [
        .systemLibrary(name: "CFuse", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        .target(name: "PhotoCore"),
        .target(name: "PhotoMetadata", dependencies: ["PhotoCore", "CExif"]),
        .target(name: "PhotoCatalog", dependencies: ["PhotoCore", "CSQLite"]),
        .target(name: "PhotoFS", dependencies: ["PhotoCore", "CFuse"]),
        .target(name: "PickerServer", dependencies: ["PhotoCore", "CMicroHTTPD"]),
        .executableTarget(
            name: "photofs",
            dependencies: ["PhotoCore", "PhotoMetadata", "PhotoCatalog", "PhotoFS", "PickerServer"]
        ),

        .testTarget(name: "PhotoCoreTests", dependencies: ["PhotoCore"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoCore", "PhotoMetadata"]),
        .testTarget(
            name: "PhotoCatalogTests",
            dependencies: ["PhotoCore", "PhotoCatalog", "PhotoMetadata"]
        ),
        .testTarget(name: "PickerServerTests", dependencies: ["PhotoCore", "PickerServer"]),
        .testTarget(
            name: "PhotoFSTests",
            dependencies: ["PhotoCore", "PhotoFS", "PhotoCatalog", "PhotoMetadata"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
