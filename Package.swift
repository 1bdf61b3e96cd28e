// swift-tools-version:6.1
import PackageDescription

/// Darkroom: a plugin-based media-processing pipeline, for Linux (Debian 12's libvips, libheif,
/// libexif and FFmpeg; no Apple platform is declared because none is supported).
///
/// Layers, bottom up:
/// - `C*` system library targets: libvips, libheif, libexif, FFmpeg, cairo and Pango (each with a tiny `shim.h`).
/// - `DarkroomVips`, `DarkroomHEIF`, `DarkroomExif`, `DarkroomCairo`: Swift wrappers owning every C handle.
/// - `DarkroomCore`: stages, items, pipeline files, publishing, the `CatalogStore` protocol and the
///   runner. Imports no C and no database.
/// - `DarkroomCatalog`: the library's SQLite catalog (GRDB); `DarkroomShards`: sharded sweeps'
///   manifests and their merge; `DarkroomQueue`: PostgreSQL as a fleet's catalog and work queue.
/// - `DarkroomImaging`: what image stages share (the decoded image on an item, decode limits).
/// - `Plugins/*`: one module per stage.
/// - `DarkroomStages`: the one list of built-in stages; `darkroom`: the command-line tool.
///
/// Every target compiles in the Swift 6 language mode, with strict concurrency checking: the
/// default of tools version 6, so no target sets a language mode of its own.

func plugin(_ name: String, path: String, dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "Plugins/\(path)")
}

let package = Package(
    name: "Darkroom",
    products: [
        .executable(name: "darkroom", targets: ["darkroom"]),
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
        .library(name: "DarkroomCatalog", targets: ["DarkroomCatalog"]),
        .library(name: "DarkroomStages", targets: ["DarkroomStages"]),
    ],
    traits: [
        .trait(name: "Queue", description: "PostgreSQL as a fleet's catalog and work queue: darkroom enqueue, worker and queue, "
               + "and --catalog postgres://. Off by default: it builds swift-nio, swift-nio-ssl (BoringSSL) and postgres-nio."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // Native libraries.
        .systemLibrary(name: "CVips", path: "Sources/CVips", pkgConfig: "vips",
                       providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CHeif", path: "Sources/CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CExif", path: "Sources/CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libswscale-dev", "libavutil-dev"])]),

        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",  // cairo PDF surfaces, Pango text
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),

        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),  // statfs, for the network filesystem check
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),  // SHA-256 only

        // Swift wrappers over them.
        .target(name: "DarkroomVips", dependencies: ["CVips"]),
        .target(name: "DarkroomHEIF", dependencies: ["CHeif"]),
        .target(name: "DarkroomExif", dependencies: ["CExif"]),
        .target(name: "DarkroomVideo", dependencies: ["CFFmpeg"]),
        .target(name: "DarkroomCairo", dependencies: ["CCairo"]),
        .target(name: "DarkroomDigest", dependencies: ["CLibCrypto"]),
        // XMP packets (read in both RDF forms, merged, written) and a tokenizer safe on hostile bytes: pure Swift.
        .target(name: "DarkroomXMP"),
        // Darkroom's pages (gallery, run report): escaped HTML, the stylesheet, the viewer script. Pure Swift.
        .target(name: "DarkroomHTML", dependencies: ["DarkroomDigest"]),
        // Motion photos (Google XMP, Samsung trailer and HEIF box): pure Swift and Foundation.
        .target(name: "DarkroomMotionPhoto", dependencies: ["DarkroomXMP"]),
        // Near-duplicates and bursts (issue 22): perceptual fingerprints, their index, burst grouping,
        // the photo to keep, the report `darkroom duplicates` prints. Pure Swift; reads Google's XMP burst marks.
        .target(name: "DarkroomSimilarity", dependencies: ["DarkroomXMP"]),
        // The time zone at a GPS position, offline (timezone-boundary-builder's polygons, ODbL): pure Swift and Foundation.
        .target(name: "DarkroomTimeZones", resources: [.copy("Resources/timezones.bin"), .copy("Resources/NOTICE.md")]),

        // The core: stages, pipelines, publishing and the runner; no C library, no database.
        .target(name: "DarkroomCore", dependencies: [
            "DarkroomDigest",
            .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The library's own catalog: SQLite through GRDB (CLinux's statfs refuses network filesystems).
        .target(name: "DarkroomCatalog", dependencies: [
            "DarkroomCore", "CLinux",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Sharded sweeps: each shard's manifest, and the merge into a catalog.
        .target(name: "DarkroomShards", dependencies: ["DarkroomCore"]),
        .target(name: "DarkroomImaging", dependencies: ["DarkroomCore", "DarkroomVips", "DarkroomVideo"]),
        // Sidecars of exports: Google Takeout JSON (matched under every naming Takeout used) and XMP sidecars.
        .target(name: "DarkroomSidecars", dependencies: ["DarkroomCore", "DarkroomXMP"]),
        // PostgreSQL as a fleet's catalog and work queue.
        .target(name: "DarkroomQueue", dependencies: [
            "DarkroomCore",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Stages, one module each, each declaring every module it imports.
        plugin("ExifDateStage", path: "ExifDate", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomExif", "DarkroomVideo", "DarkroomSidecars", "DarkroomTimeZones",
        ]),
        plugin("ResizeStage", path: "Resize", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips"]),
        plugin("HEICEncodeStage", path: "HEICEncode", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF", "DarkroomExif", "DarkroomSidecars",
        ]),
        plugin("ThumbnailStage", path: "Thumbnail", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomVideo"]),
        plugin("VideoEncodeStage", path: "VideoEncode", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVideo"]),
        plugin("TimelapseStage", path: "Timelapse", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomVideo"]),
        plugin("MotionVideoStage", path: "MotionVideo", dependencies: [
            "DarkroomCore", "DarkroomMotionPhoto", "DarkroomImaging", "DarkroomExif", "DarkroomVideo",
        ]),
        plugin("CollageStage", path: "Collage", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF"]),
        plugin("PhotoBookStage", path: "PhotoBook", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomCairo", "CollageStage"]),
        plugin("GalleryStage", path: "Gallery", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHTML"]),

        .target(name: "DarkroomStages", dependencies: [
            "DarkroomCore", "DarkroomImaging", "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage", "MotionVideoStage",
            "TimelapseStage", "CollageStage", "PhotoBookStage", "VideoEncodeStage", "GalleryStage",
        ]),
        .executableTarget(name: "darkroom", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomShards", "DarkroomImaging", "DarkroomStages", "CollageStage", "GalleryStage",
            "ExifDateStage",
            .target(name: "DarkroomQueue", condition: .when(traits: ["Queue"])),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Test helpers, shipped as their own target.
        .target(name: "DarkroomTestSupport", dependencies: ["DarkroomCore", "DarkroomVips"]),

        .testTarget(name: "DarkroomCoreTests", dependencies: ["DarkroomCore", "DarkroomCatalog", "DarkroomTestSupport"]),
        .testTarget(name: "NativeBindingTests", dependencies: [
            "DarkroomVips", "DarkroomHEIF", "DarkroomExif", "DarkroomTestSupport",
        ]),
        .testTarget(name: "StageTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomImaging", "DarkroomStages", "DarkroomVips", "DarkroomExif", "DarkroomHEIF",
            "DarkroomTestSupport", "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage",
        ]),
        .testTarget(name: "ExifDateTests", dependencies: [
            "DarkroomCore", "DarkroomExif", "ExifDateStage", "DarkroomSidecars", "DarkroomTestSupport",
        ]),
        .testTarget(name: "TimelapseTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVideo", "DarkroomVips", "TimelapseStage", "DarkroomTestSupport",
        ]),
        .testTarget(name: "CollageTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "CollageStage", "DarkroomTestSupport",
        ], exclude: ["Goldens"]),  // read by path, not bundled
        .testTarget(name: "ImportTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "DarkroomTestSupport",
        ]),
        .testTarget(name: "QueueTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomQueue", "DarkroomTestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "MotionPhotoTests", dependencies: [
            "DarkroomMotionPhoto", "DarkroomXMP", "DarkroomExif", "DarkroomHEIF", "DarkroomVips", "DarkroomTestSupport",
        ]),
        .testTarget(name: "DarkroomXMPTests", dependencies: ["DarkroomXMP", "DarkroomTestSupport"]),
        .testTarget(name: "SidecarTests", dependencies: [
            "DarkroomSidecars", "DarkroomXMP", "DarkroomCore", "DarkroomTestSupport",
        ]),
        .testTarget(name: "PhotoBookTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "DarkroomCairo", "PhotoBookStage", "CollageStage", "DarkroomTestSupport",
        ]),
        .testTarget(name: "DarkroomHTMLTests", dependencies: ["DarkroomHTML"]),
        .testTarget(name: "GalleryTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "DarkroomHTML", "GalleryStage", "DarkroomTestSupport",
        ]),
        .testTarget(name: "TimeZoneTests", dependencies: ["DarkroomTimeZones"]),
        .testTarget(name: "VideoTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomImaging", "DarkroomStages", "DarkroomVideo", "DarkroomVips", "DarkroomTestSupport",
            "ExifDateStage", "ThumbnailStage", "VideoEncodeStage",
        ]),
        .testTarget(name: "SimilarityTests", dependencies: [
            "DarkroomSimilarity", "DarkroomVips", "DarkroomXMP", "DarkroomExif", "DarkroomTestSupport",
        ]),
        // Not shipped: the corpus' hash distances and the time to group 100,000 photos, for Benchmarks/similarity.sh.
        .executableTarget(name: "similarity-bench", dependencies: ["DarkroomSimilarity", "DarkroomVips"],
                          path: "Benchmarks/SimilarityBench"),
        // Not shipped: load time, memory and lookup cost of DarkroomTimeZones, for Benchmarks/timezones.sh.
        .executableTarget(name: "timezone-benchmark", dependencies: ["DarkroomTimeZones"],
                          path: "Benchmarks/TimeZoneLookup"),
        .testTarget(name: "DateCorrectionTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomTestSupport",
        ]),
        .testTarget(name: "FleetTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomShards", "DarkroomQueue", "DarkroomStages", "DarkroomTestSupport",
        ]),
    ]
)
