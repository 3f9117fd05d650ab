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
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        .target(name: "PhotoCore"),
        .target(name: "PhotoHashing", dependencies: ["PhotoCore", "CCrypto"]),
        .target(name: "PhotoMetadata", dependencies: ["PhotoCore", "PhotoHashing", "CExif"]),
        .target(name: "PhotoCatalog", dependencies: ["PhotoCore", "PhotoHashing", "CSQLite"]),
        .target(name: "PhotoFS", dependencies: ["PhotoCore", "CFuse"]),
        .executableTarget(
            name: "photofs",
            dependencies: ["PhotoCore", "PhotoHashing", "PhotoMetadata", "PhotoCatalog", "PhotoFS"]
        ),

        .testTarget(name: "PhotoCoreTests", dependencies: ["PhotoCore"]),
        .testTarget(name: "PhotoHashingTests", dependencies: ["PhotoCore", "PhotoHashing"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoCore", "PhotoHashing", "PhotoMetadata"]),
        .testTarget(
            name: "PhotoCatalogTests",
            dependencies: ["PhotoCore", "PhotoHashing", "PhotoCatalog", "PhotoMetadata"]
        ),
        .testTarget(
            name: "PhotoFSTests",
            dependencies: ["PhotoCore", "PhotoHashing", "PhotoFS", "PhotoCatalog", "PhotoMetadata"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
