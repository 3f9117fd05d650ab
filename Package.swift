// swift-tools-version:6.0
import PackageDescription

// Dependencies point inward: MediaFormats (bytes of photo and video files) depends on
// nothing, SystemKit (the one door to the C library and the kernel: errors, descriptors,
// clocks, the library opener) on its C door CSystem only, PhotoCore (assets, filters,
// grants, views) on those two, everything else on PhotoCore; each C library is imported
// by exactly one Swift module.
let package = Package(
    name: "photofs",
    products: [
        .executable(name: "photofs", targets: ["photofs"])
    ],
    targets: [
        .systemLibrary(name: "CSystem"),
        .systemLibrary(name: "CFuse", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev", "libde265-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CJXL", pkgConfig: "libjxl", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(
            name: "CAV", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        .target(name: "MediaFormats"),
        .target(name: "SystemKit", dependencies: ["CSystem"]),
        .target(name: "PhotoCore", dependencies: ["MediaFormats", "SystemKit"]),
        .target(name: "PhotoSamples", dependencies: ["MediaFormats"]),
        .target(name: "PhotoHashing", dependencies: ["PhotoCore", "SystemKit", "CCrypto"]),
        .target(name: "PhotoMetadata", dependencies: ["MediaFormats", "PhotoCore", "PhotoHashing", "SystemKit", "CExif"]),
        .target(name: "PhotoCatalog", dependencies: ["MediaFormats", "PhotoCore", "PhotoHashing", "SystemKit", "CSQLite"]),
        .target(name: "FuseKit", dependencies: ["MediaFormats", "PhotoCore", "SystemKit", "CFuse"]),
        // The live state and what runs while mounted; publishes each change to one
        // `ChangeSink` (PhotoCore), which FuseKit implements: neither depends on the other.
        .target(name: "DaemonCore", dependencies: ["MediaFormats", "PhotoCore", "PhotoCatalog", "SystemKit"]),
        // How a process other than the daemon reaches a library's grants: the daemon channel's
        // calls and replies, its socket client, the mount table, the catalog when unmounted.
        .target(name: "DaemonClient", dependencies: ["DaemonCore", "PhotoCatalog", "PhotoCore", "PhotoHashing", "SystemKit"]),
        .target(name: "PickerServer", dependencies: ["DaemonClient", "MediaFormats", "PhotoCore", "SystemKit", "CMicroHTTPD"]),
        .target(
            name: "PhotoImaging",
            dependencies: [
                "MediaFormats", "PhotoCore", "PhotoHashing", "SystemKit", "CTurboJPEG", "CHeif", "CPNG", "CWebP", "CJXL", "CGIF", "CTIFF",
                "CAV",
                "CSeccomp",
            ]),
        .executableTarget(
            name: "photofs",
            dependencies: [
                "MediaFormats", "SystemKit", "PhotoCore", "PhotoHashing", "PhotoSamples", "PhotoMetadata", "PhotoCatalog", "DaemonCore",
                "DaemonClient", "FuseKit",
                "PhotoImaging", "PickerServer", "CSystemd",
            ]
        ),

        // What every test target shares: external readers (exiftool, PIL) and the skip rule.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A library, its catalog and tiny JPEGs on disk: what the catalog and daemon-core tests share.
        .target(
            name: "CatalogTestSupport", dependencies: ["MediaFormats", "PhotoCore", "PhotoHashing", "PhotoCatalog", "PhotoMetadata", "SystemKit"],
            path: "Tests/CatalogTestSupport"),
        // Walks of a built view tree that the view and catalog tests compare trees with.
        .target(name: "ViewTestSupport", dependencies: ["PhotoCore"], path: "Tests/ViewTestSupport"),
        .testTarget(name: "SystemKitTests", dependencies: ["SystemKit"]),
        .testTarget(name: "MediaFormatsTests", dependencies: ["MediaFormats", "PhotoSamples", "TestSupport"]),
        .testTarget(
            name: "PhotoCoreTests",
            dependencies: ["MediaFormats", "PhotoCore", "PhotoSamples", "SystemKit", "TestSupport", "ViewTestSupport"]),
        .testTarget(name: "PhotoSamplesTests", dependencies: ["MediaFormats", "PhotoSamples", "TestSupport"]),
        .testTarget(name: "PhotoHashingTests", dependencies: ["PhotoCore", "PhotoHashing", "TestSupport"]),
        .testTarget(
            name: "PhotoMetadataTests",
            dependencies: ["MediaFormats", "PhotoCore", "PhotoHashing", "PhotoMetadata", "PhotoSamples", "SystemKit", "TestSupport"]),
        .testTarget(
            name: "PhotoCatalogTests",
            dependencies: [
                "MediaFormats", "PhotoCore", "PhotoHashing", "PhotoCatalog", "PhotoMetadata", "PhotoSamples", "SystemKit", "CatalogTestSupport", "TestSupport",
                "ViewTestSupport",
            ]
        ),
        .testTarget(
            name: "DaemonCoreTests",
            dependencies: [
                "MediaFormats", "PhotoCore", "PhotoHashing", "PhotoCatalog", "PhotoMetadata", "DaemonCore", "SystemKit", "CatalogTestSupport", "TestSupport",
            ]),
        .testTarget(
            name: "PhotoFSTests",
            dependencies: [
                "MediaFormats", "PhotoCore", "PhotoHashing", "FuseKit", "PhotoCatalog", "DaemonCore", "PhotoMetadata", "PhotoSamples",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "ViewLayerTests",
            dependencies: [
                "PhotoCore", "PhotoCatalog", "DaemonCore", "FuseKit", "PhotoImaging", "PhotoMetadata", "SystemKit", "TestSupport",
            ]
        ),
        .testTarget(name: "DaemonClientTests", dependencies: ["DaemonClient"]),
        .testTarget(name: "PickerServerTests", dependencies: ["MediaFormats", "PhotoCore", "PickerServer", "SystemKit", "TestSupport"]),
        .testTarget(name: "PhotoImagingTests", dependencies: ["MediaFormats", "PhotoCore", "PhotoImaging", "SystemKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
