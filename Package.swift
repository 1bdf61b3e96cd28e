// swift-tools-version:6.0
import PackageDescription

/// Darkroom: a plugin-based media-processing pipeline, for Linux (Debian 12's libvips, libheif,
/// libexif and FFmpeg; no Apple platform is declared because none is supported).
///
/// Layers, bottom up:
/// - `C*` system library targets: libvips, libheif, libexif, FFmpeg (each with a tiny `shim.h`).
/// - `DarkroomVips`, `DarkroomHEIF`, `DarkroomExif`: Swift wrappers owning every C handle.
/// - `DarkroomCore`: stages, items, pipeline files, catalog and runner. Imports no C.
/// - `DarkroomImaging`: what image stages share (the decoded image on an item, decode limits).
/// - `Plugins/*`: one module per stage.
/// - `DarkroomStages`: the one list of built-in stages; `darkroom`: the command-line tool.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

func plugin(_ name: String, path: String, dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "Plugins/\(path)", swiftSettings: swift5)
}

let package = Package(
    name: "Darkroom",
    products: [
        .executable(name: "darkroom", targets: ["darkroom"]),
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
        .library(name: "DarkroomStages", targets: ["DarkroomStages"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
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
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),

        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),  // statfs, for the network filesystem check

        // Swift wrappers over them.
        .target(name: "DarkroomVips", dependencies: ["CVips"], swiftSettings: swift5),
        .target(name: "DarkroomHEIF", dependencies: ["CHeif"], swiftSettings: swift5),
        .target(name: "DarkroomExif", dependencies: ["CExif"], swiftSettings: swift5),
        .target(name: "DarkroomVideo", dependencies: ["CFFmpeg"], swiftSettings: swift5),
        // Motion photos (Google XMP, Samsung trailer and HEIF box): pure Swift and Foundation.
        .target(name: "DarkroomMotionPhoto", swiftSettings: swift5),

        // The core: no media C libraries (only CLinux's statfs).
        .target(name: "DarkroomCore", dependencies: [
            "CLinux",
            .product(name: "Yams", package: "Yams"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], swiftSettings: swift5),
        .target(name: "DarkroomImaging", dependencies: ["DarkroomCore", "DarkroomVips"], swiftSettings: swift5),
        // PostgreSQL as a fleet's catalog and work queue.
        .target(name: "DarkroomQueue", dependencies: [
            "DarkroomCore",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: swift5),

        // Stages, one module each, each declaring every module it imports.
        plugin("ExifDateStage", path: "ExifDate", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomExif"]),
        plugin("ResizeStage", path: "Resize", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips"]),
        plugin("HEICEncodeStage", path: "HEICEncode", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF", "DarkroomExif"]),
        plugin("ThumbnailStage", path: "Thumbnail", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips"]),
        plugin("TimelapseStage", path: "Timelapse", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomVideo"]),
        plugin("MotionVideoStage", path: "MotionVideo", dependencies: ["DarkroomCore", "DarkroomMotionPhoto"]),
        plugin("CollageStage", path: "Collage", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF"]),

        .target(name: "DarkroomStages", dependencies: [
            "DarkroomCore", "DarkroomImaging", "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage", "MotionVideoStage",
            "TimelapseStage", "CollageStage",
        ], swiftSettings: swift5),
        .executableTarget(name: "darkroom", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomStages", "DarkroomQueue", "CollageStage",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: swift5),

        // Test helpers, shipped as their own target.
        .target(name: "DarkroomTestSupport", dependencies: ["DarkroomCore", "DarkroomVips"], swiftSettings: swift5),

        .testTarget(name: "DarkroomCoreTests", dependencies: ["DarkroomCore", "DarkroomTestSupport"], swiftSettings: swift5),
        .testTarget(name: "NativeBindingTests", dependencies: [
            "DarkroomVips", "DarkroomHEIF", "DarkroomExif", "DarkroomTestSupport",
        ], swiftSettings: swift5),
        .testTarget(name: "StageTests", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomStages", "DarkroomVips", "DarkroomExif", "DarkroomHEIF", "DarkroomTestSupport",
            "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage",
        ], swiftSettings: swift5),
        .testTarget(name: "ExifDateTests", dependencies: [
            "DarkroomCore", "DarkroomExif", "ExifDateStage", "DarkroomTestSupport",
        ], swiftSettings: swift5),
        .testTarget(name: "TimelapseTests", dependencies: [
            "DarkroomCore", "DarkroomStages", "DarkroomVideo", "DarkroomVips", "TimelapseStage", "DarkroomTestSupport",
        ], swiftSettings: swift5),
        .testTarget(name: "CollageTests", dependencies: [
            "DarkroomCore", "DarkroomStages", "DarkroomVips", "CollageStage", "DarkroomTestSupport",
        ], exclude: ["Goldens"], swiftSettings: swift5),  // read by path, not bundled
        .testTarget(name: "ImportTests", dependencies: [
            "DarkroomCore", "DarkroomStages", "DarkroomVips", "DarkroomTestSupport",
        ], swiftSettings: swift5),
        .testTarget(name: "QueueTests", dependencies: [
            "DarkroomCore", "DarkroomQueue", "DarkroomTestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], swiftSettings: swift5),
        .testTarget(name: "MotionPhotoTests", dependencies: [
            "DarkroomMotionPhoto", "DarkroomExif", "DarkroomHEIF", "DarkroomVips", "DarkroomTestSupport",
        ], swiftSettings: swift5),
        .testTarget(name: "FleetTests", dependencies: [
            "DarkroomCore", "DarkroomQueue", "DarkroomStages", "DarkroomTestSupport",
        ], swiftSettings: swift5),
    ]
)
