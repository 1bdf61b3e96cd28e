// swift-tools-version:6.1
import PackageDescription

/// Darkroom: a plugin-based media-processing pipeline, for Linux (Debian 12's libvips, libheif,
/// libexif and FFmpeg; no Apple platform is declared because none is supported).
///
/// Layers, bottom up:
/// - `C*` system library targets: libvips, libheif, libexif, FFmpeg, cairo and Pango, LibRaw (each with a tiny `shim.h`).
/// - `DarkroomVips`, `DarkroomHEIF`, `DarkroomExif`, `DarkroomCairo`, `DarkroomRaw`: Swift wrappers owning every C handle.
/// - `DarkroomRuntime`: `NativeRuntime`, which starts every native library once, on the calling thread,
///   before any worker; the wrappers' factories refuse to work until it has.
/// - `DarkroomISOBMFF`: the one reader of ISO base media files (HEIF, MP4), pure Swift; motion photos, the
///   video layer and `DarkroomPhotoMetadata` (what a library file carries about its photo) use it.
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
        .trait(name: "Studio", description: "What is made from a library: the collage, time-lapse (with OpenCV's photo alignment) "
               + "and photo-book (cairo) stages, and darkroom export. On by default; the import alone builds without it "
               + "(--disable-default-traits), and `--traits` without it leaves it out."),
        .trait(name: "Queue", description: "PostgreSQL as a fleet's catalog and work queue: darkroom enqueue, worker and queue, "
               + "and --catalog postgres://. Off by default: it builds swift-nio, swift-nio-ssl (BoringSSL) and postgres-nio."),
        .default(enabledTraits: ["Studio"]),
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
        // FFmpeg's headers (Debian's libavformat-dev, libavcodec-dev, libavfilter-dev, libswscale-dev, libavutil-dev), and
        // its libraries opened on first use rather than linked (FFmpegLibraries.c says why).
        .target(name: "CFFmpeg", path: "Sources/CFFmpeg"),

        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "pangocairo",  // cairo PDF surfaces, Pango text
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),

        // LibRaw's thread-safe build (libraw_r): RAW decoding. Its pkg-config adds -fopenmp, which SwiftPM drops
        // with a warning; libraw_r.so links libgomp itself.
        .systemLibrary(name: "CLibRaw", path: "Sources/CLibRaw", pkgConfig: "libraw_r",
                       providers: [.apt(["libraw-dev"])]),

        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),  // statfs (network filesystems), malloc_trim (HeapTrim)
        .systemLibrary(name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),  // SHA-256 only
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),  // CRC-32 and raw deflate for ZIP archives

        // OpenCV 4.6 (C++, Debian's per-module -dev packages; only libopencv-dev, which pulls in all of
        // OpenCV, ships opencv4.pc) behind a C interface: the photo-alignment engine of aligned time-lapses.
        .target(name: "CAlignment", path: "Sources/CAlignment",
                cxxSettings: [.unsafeFlags(["-isystem", "/usr/include/opencv4"])],
                linkerSettings: ["opencv_core", "opencv_imgproc", "opencv_features2d", "opencv_calib3d", "opencv_video",
                                 "opencv_objdetect"].map { .linkedLibrary($0) }),

        // Swift wrappers over them.
        // Aligned time-lapses and collages: scene and face alignment, the common crop (the only importer of CAlignment).
        .target(name: "DarkroomAlignment", dependencies: ["CAlignment", "DarkroomVips"]),
        .target(name: "DarkroomVips", dependencies: ["CVips", .product(name: "Logging", package: "swift-log")]),
        .target(name: "DarkroomHEIF", dependencies: ["CHeif"]),
        .target(name: "DarkroomExif", dependencies: ["CExif"]),
        .target(name: "DarkroomVideo", dependencies: ["CFFmpeg", "DarkroomISOBMFF", .product(name: "Logging", package: "swift-log")]),
        .target(name: "DarkroomCairo", dependencies: ["CCairo"]),
        // RAW files: LibRaw's decoding and previews, and the capture metadata of every RAW container (read in Swift).
        .target(name: "DarkroomRaw", dependencies: ["CLibRaw", "DarkroomModel", "DarkroomVips", "DarkroomExif"]),
        .target(name: "DarkroomDigest", dependencies: ["CLibCrypto"]),
        // Streaming ZIP archives (ZIP64 past 4 GiB), for `darkroom export --zip`.
        .target(name: "DarkroomZip", dependencies: ["CZlib"]),
        // The one owner of the native libraries: libvips, FFmpeg, libheif and x265 started once, in order.
        .target(name: "DarkroomRuntime", dependencies: [
            "DarkroomVips", "DarkroomVideo", "DarkroomHEIF", "DarkroomRaw", .product(name: "Logging", package: "swift-log"),
        ]),
        // XMP packets (read in both RDF forms, merged, written) and a tokenizer safe on hostile bytes: pure Swift.
        .target(name: "DarkroomXMP"),
        // Darkroom's pages (gallery, run report): escaped HTML, the stylesheet, the viewer script. Pure Swift.
        .target(name: "DarkroomHTML", dependencies: ["DarkroomDigest"]),
        // ISO base media files (HEIF, AVIF, MP4): the one box reader (sizes checked, walks bounded), HEIF
        // items read without libheif, and Exif and XMP items replaced without re-encoding. Pure Swift.
        .target(name: "DarkroomISOBMFF"),
        // Motion photos (Google XMP, Samsung trailer and HEIF box): pure Swift and Foundation.
        .target(name: "DarkroomMotionPhoto", dependencies: ["DarkroomXMP", "DarkroomISOBMFF"]),
        // Near-duplicates and bursts (issue 22): perceptual fingerprints, their index, burst grouping,
        // the photo to keep, the report `darkroom duplicates` prints. Pure Swift; reads Google's XMP burst marks
        // into the model's `BurstMark`.
        .target(name: "DarkroomSimilarity", dependencies: ["DarkroomModel", "DarkroomXMP"]),
        // The time zone at a GPS position, offline (timezone-boundary-builder's polygons, ODbL): pure Swift and Foundation.
        .target(name: "DarkroomTimeZones", resources: [.copy("Resources/timezones.bin"), .copy("Resources/NOTICE.md")]),

        // The core, bottom up; no C library, no database.
        // What every layer speaks of: capture dates, media kinds, places, content hashes, file facts,
        // the errors that refuse or fail, bounded threads.
        .target(name: "DarkroomModel", dependencies: ["DarkroomDigest", "CLinux"]),
        // Pipeline and template files: YAML read with positions, options declared once, path templates,
        // compiler-style diagnostics.
        .target(name: "DarkroomOptions", dependencies: ["DarkroomModel", .product(name: "Yams", package: "Yams")]),
        // The library on disk: the catalog's protocol and rows, publishing (stage, journal, link, commit),
        // the lock, recovery after a crash, verification.
        .target(name: "DarkroomLibrary", dependencies: [
            "DarkroomModel", "DarkroomReport",
            .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // What a run did and would do (reports, plans), and their text for people.
        .target(name: "DarkroomReport", dependencies: ["DarkroomModel"]),
        // Stages, items, pipelines, discovery and the survey, and the runner.
        .target(name: "DarkroomCore", dependencies: [
            "DarkroomModel", "DarkroomOptions", "DarkroomLibrary", "DarkroomReport", "DarkroomSimilarity",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // What a library file carries about its photo: the capture date in EXIF and XMP, the photo's XMP
        // with its IPTC-IIM and its sidecar, and the date set again in a HEIC without re-encoding it.
        .target(name: "DarkroomPhotoMetadata", dependencies: ["DarkroomModel", "DarkroomExif", "DarkroomXMP", "DarkroomISOBMFF"]),
        // How dates read in captions, titles and pages (one formatter for every stage), and caption templates.
        .target(name: "DarkroomCaptions", dependencies: ["DarkroomModel", "DarkroomOptions"]),
        // Correcting capture dates in a library (`darkroom catalog set-date`).
        .target(name: "DarkroomCorrection", dependencies: ["DarkroomCore", "DarkroomPhotoMetadata"]),
        // `darkroom export` and `darkroom catalog export`: photos for people (JPEG), HEICs or originals with
        // their XMP, into a folder or a streaming ZIP; the catalog as JSON or CSV for other applications.
        .target(name: "DarkroomExport", dependencies: [
            "DarkroomCore", "DarkroomLibrary", "DarkroomRuntime", "DarkroomVips", "DarkroomExif", "DarkroomXMP", "DarkroomHEIF",
            "DarkroomVideo", "DarkroomZip", "DarkroomSidecars",
        ]),
        // `darkroom duplicates`: a library's near-duplicates and bursts from its catalog (thumbnails of
        // older imports hashed once), as text, JSON or an HTML page, and the copies moved out.
        .target(name: "DarkroomDuplicates", dependencies: [
            "DarkroomLibrary", "DarkroomModel", "DarkroomReport", "DarkroomSimilarity", "DarkroomRuntime", "DarkroomVips", "DarkroomHTML",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Why a photo gets its date and folder (`darkroom explain`).
        .target(name: "DarkroomExplain", dependencies: ["DarkroomCore"]),
        // The library's own catalog: SQLite through GRDB (CLinux's statfs refuses network filesystems).
        .target(name: "DarkroomCatalog", dependencies: [
            "DarkroomCore", "CLinux",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // Sharded sweeps: each shard's manifest, and the merge into a catalog.
        .target(name: "DarkroomShards", dependencies: ["DarkroomCore"]),
        .target(name: "DarkroomImaging", dependencies: [
            "DarkroomCore", "DarkroomRuntime", "DarkroomVips", "DarkroomVideo", "DarkroomRaw", "DarkroomISOBMFF",
        ]),
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
            "DarkroomSimilarity",
        ]),
        plugin("ResizeStage", path: "Resize", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVips"]),
        plugin("HEICEncodeStage", path: "HEICEncode", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF", "DarkroomExif", "DarkroomSidecars",
            "DarkroomPhotoMetadata",
        ]),
        plugin("ThumbnailStage", path: "Thumbnail", dependencies: [
            "DarkroomCore", "DarkroomImaging", "DarkroomVips", "DarkroomVideo", "DarkroomSimilarity",
        ]),
        plugin("VideoEncodeStage", path: "VideoEncode", dependencies: ["DarkroomCore", "DarkroomImaging", "DarkroomVideo"]),
        plugin("TimelapseStage", path: "Timelapse", dependencies: [
            "DarkroomCore", "DarkroomCaptions", "DarkroomImaging", "DarkroomVips", "DarkroomVideo", "DarkroomAlignment",
        ]),
        plugin("MotionVideoStage", path: "MotionVideo", dependencies: [
            "DarkroomCore", "DarkroomMotionPhoto", "DarkroomImaging", "DarkroomExif", "DarkroomVideo", "DarkroomVips",
        ]),
        plugin("CollageStage", path: "Collage", dependencies: [
            "DarkroomCore", "DarkroomCaptions", "DarkroomImaging", "DarkroomVips", "DarkroomHEIF", "DarkroomAlignment",
        ]),
        plugin("PhotoBookStage", path: "PhotoBook", dependencies: ["DarkroomCore", "DarkroomCaptions", "DarkroomImaging", "DarkroomVips", "DarkroomCairo"]),
        plugin("GalleryStage", path: "Gallery", dependencies: ["DarkroomCore", "DarkroomLibrary", "DarkroomCaptions", "DarkroomImaging", "DarkroomVips", "DarkroomHTML"]),

        .target(name: "DarkroomStages", dependencies: [
            "DarkroomCore", "DarkroomImaging", "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage", "MotionVideoStage",
            "VideoEncodeStage", "GalleryStage",
        ] + ["TimelapseStage", "CollageStage", "PhotoBookStage"].map { .target(name: $0, condition: .when(traits: ["Studio"])) }),
        .executableTarget(name: "darkroom", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomShards", "DarkroomStages", "DarkroomCorrection", "DarkroomExplain",
            "DarkroomDuplicates",
            .target(name: "DarkroomExport", condition: .when(traits: ["Studio"])),
            .target(name: "DarkroomQueue", condition: .when(traits: ["Queue"])),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Test helpers, shipped as their own target.
        .target(name: "DarkroomTestSupport", dependencies: ["DarkroomCore", "DarkroomRuntime", "DarkroomVips"]),

        .testTarget(name: "DarkroomCoreTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "NativeBindingTests", dependencies: [
            "DarkroomRuntime", "DarkroomVips", "DarkroomVideo", "DarkroomHEIF", "DarkroomRaw", "DarkroomExif", "DarkroomXMP", "DarkroomTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "StageTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomImaging", "DarkroomStages", "DarkroomVips", "DarkroomExif", "DarkroomHEIF",
            "DarkroomTestSupport", "ExifDateStage", "ResizeStage", "HEICEncodeStage", "ThumbnailStage",
        ]),
        .testTarget(name: "ExifDateTests", dependencies: [
            "DarkroomCore", "DarkroomExif", "ExifDateStage", "DarkroomSidecars", "DarkroomTestSupport",
        ]),
        .testTarget(name: "TimelapseTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVideo", "DarkroomVips", "DarkroomAlignment", "TimelapseStage",
            "DarkroomTestSupport", "AlignmentTestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "CollageTests", dependencies: [
            "DarkroomCore", "DarkroomCaptions", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "CollageStage", "DarkroomTestSupport",
            "DarkroomAlignment",
        ], exclude: ["Goldens"]),  // read by path, not bundled
        .testTarget(name: "ImportTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomExplain", "DarkroomStages", "DarkroomVips", "DarkroomTestSupport",
            "DarkroomSimilarity",
        ]),
        .testTarget(name: "QueueTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomCorrection", "DarkroomQueue", "DarkroomTestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "MotionPhotoTests", dependencies: [
            "DarkroomMotionPhoto", "DarkroomISOBMFF", "DarkroomXMP", "DarkroomExif", "DarkroomHEIF", "DarkroomVips", "DarkroomTestSupport",
        ]),
        .testTarget(name: "DarkroomXMPTests", dependencies: ["DarkroomXMP", "DarkroomTestSupport"]),
        .testTarget(name: "SidecarTests", dependencies: [
            "DarkroomSidecars", "DarkroomXMP", "DarkroomCore", "DarkroomTestSupport",
        ]),
        .testTarget(name: "PhotoBookTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "DarkroomCairo", "PhotoBookStage", "DarkroomTestSupport",
        ]),
        .testTarget(name: "DarkroomHTMLTests", dependencies: ["DarkroomHTML"]),
        .testTarget(name: "GalleryTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomVips", "DarkroomHTML", "GalleryStage", "DarkroomTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "TimeZoneTests", dependencies: ["DarkroomTimeZones"]),
        .testTarget(name: "VideoTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomImaging", "DarkroomStages", "DarkroomVideo", "DarkroomVips", "DarkroomTestSupport",
            "ExifDateStage", "ThumbnailStage", "VideoEncodeStage",
        ]),
        .testTarget(name: "RawTests", dependencies: ["DarkroomRaw", "DarkroomVips", "DarkroomExif", "DarkroomTestSupport"]),
        // Not shipped: time and peak memory of RAW previews and developments, for Benchmarks/raw.sh.
        .executableTarget(name: "raw-benchmark", dependencies: ["DarkroomRaw", "DarkroomVips"], path: "Benchmarks/RawDecode"),
        // Not shipped: the camera-roll import run in one process through Runner, for scripts/stress.sh.
        .executableTarget(name: "import-stress", dependencies: ["DarkroomCatalog", "DarkroomCore", "DarkroomDigest", "DarkroomStages"],
                          path: "Tools/ImportStress"),
        .testTarget(name: "DuplicatesTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomLibrary", "DarkroomStages", "DarkroomDuplicates", "DarkroomTestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "SimilarityTests", dependencies: [
            "DarkroomSimilarity", "DarkroomModel", "DarkroomVips", "DarkroomImaging", "DarkroomXMP", "DarkroomExif",
            "DarkroomTestSupport",
        ]),
        // Not shipped: the corpus' hash distances and the time to group 100,000 photos, for Benchmarks/similarity.sh.
        .executableTarget(name: "similarity-bench", dependencies: ["DarkroomSimilarity", "DarkroomVips", "DarkroomImaging"],
                          path: "Benchmarks/SimilarityBench"),
        // Not shipped: load time, memory and lookup cost of DarkroomTimeZones, for Benchmarks/timezones.sh.
        .executableTarget(name: "timezone-benchmark", dependencies: ["DarkroomTimeZones"],
                          path: "Benchmarks/TimeZoneLookup"),
        // Not shipped: aligns a folder of hand-held photos for Benchmarks/align.sh.
        .executableTarget(name: "align-benchmark", dependencies: ["DarkroomAlignment", "DarkroomVips"],
                          path: "Benchmarks/AlignSet"),
        // Hand-held sets made from a real photo, shared by the alignment engine's tests and the aligned time-lapse's.
        .target(name: "AlignmentTestSupport", dependencies: ["DarkroomAlignment", "DarkroomVips", "DarkroomTestSupport"],
                path: "Tests/AlignmentTestSupport"),
        .testTarget(name: "AlignmentTests", dependencies: ["DarkroomAlignment", "DarkroomVips", "DarkroomTestSupport", "AlignmentTestSupport"]),
        .testTarget(name: "ZipTests", dependencies: ["DarkroomZip", "DarkroomTestSupport"]),
        // Not shipped: DarkroomZip's speed and memory (Benchmarks/zip64.sh), and the JPEG-for-sharing path
        // of `darkroom export` until the command exists (Benchmarks/export.sh).
        .executableTarget(name: "zip-benchmark", dependencies: ["DarkroomZip"], path: "Benchmarks/ZipWriter"),
        .executableTarget(name: "export-benchmark", dependencies: ["DarkroomVips", "DarkroomExif", "DarkroomXMP"],
                          path: "Benchmarks/ExportJPEG"),
        .testTarget(name: "ExportTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomStages", "DarkroomExport", "DarkroomVips", "DarkroomXMP", "DarkroomZip",
            "DarkroomTestSupport",
        ]),
        .testTarget(name: "DateCorrectionTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomCorrection", "DarkroomStages", "DarkroomTestSupport", "DarkroomPhotoMetadata",
            "DarkroomVips",
        ]),
        .testTarget(name: "PhotoMetadataTests", dependencies: [
            "DarkroomISOBMFF", "DarkroomPhotoMetadata", "DarkroomExif", "DarkroomXMP", "DarkroomModel", "DarkroomHEIF", "DarkroomVips",
            "DarkroomTestSupport",
        ]),
        // The library on disk: the catalog's rules on SQLite and PostgreSQL alike, two processes opening one
        // catalog, and publishing and shard manifests under injected failures and kills.
        .testTarget(name: "LibraryTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomLibrary", "DarkroomModel", "DarkroomQueue", "DarkroomReport", "DarkroomShards",
            "DarkroomTestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        // Not shipped: catalogs opened and files published in processes of their own, killed at chosen
        // points, for LibraryTests.
        .executableTarget(name: "library-tool", dependencies: ["DarkroomCatalog", "DarkroomCore", "DarkroomLibrary", "DarkroomModel", "DarkroomShards"],
                          path: "Tests/LibraryTool"),
        .testTarget(name: "FleetTests", dependencies: [
            "DarkroomCore", "DarkroomCatalog", "DarkroomShards", "DarkroomQueue", "DarkroomStages", "DarkroomTestSupport",
        ]),
    ]
)
