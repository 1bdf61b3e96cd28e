import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel

/// Photos and helpers shared by the collage tests.
enum Fixtures {
    /// The package root (for `samples/` and `pipelines/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed sample photos (JPEG, PNG, WebP; the HEIC is left out to keep renders fast),
    /// one of them stored sideways with EXIF orientation 6.
    static let samplePaths = [
        "samples/camera-roll/DCIM/100CANON/IMG_0001.JPG",
        "samples/camera-roll/DCIM/100CANON/IMG_0002.JPG",
        "samples/camera-roll/Phone/PXL_20240401_101530123.jpg",
        "samples/camera-roll/Phone/beach.png",
        "samples/camera-roll/Phone/garden.webp",
    ]

    /// `count` records of the sample photos (repeating), a day apart from `start`.
    static func records(_ count: Int, start: LocalDateTime = LocalDateTime(year: 2024, month: 3, day: 15, hour: 9)!) -> [ItemRecord] {
        (0..<count).map { index in
            let url = root.appendingPathComponent(samplePaths[index % samplePaths.count])
            let date = LocalDateTime(start.instant(utcOffsetSeconds: 0).addingTimeInterval(Double(index) * 86_400), in: TimeZone(identifier: "UTC")!)!
            return record(url, date: date, name: "photo-\(index)")
        }
    }

    /// A record for `url` taken at `date`.
    static func record(_ url: URL, date: LocalDateTime?, name: String = UUID().uuidString) -> ItemRecord {
        ItemRecord(source: url, relativePath: url.lastPathComponent, contentHash: name,
                   id: UUID(), captureDate: date.map {
                       CaptureDate(local: $0, utcOffsetSeconds: 0, source: .exifOriginal, timeZoneSource: .metadata, confidence: .high)
                   })
    }

    /// Writes a JPEG with an EXIF capture date into `folder` (ImageMagick and exiftool).
    static func makePhoto(_ name: String, in folder: URL, date: String, colour: String, size: String = "640x480") throws {
        let path = folder.appendingPathComponent(name).path
        try run("/usr/bin/convert", ["-size", size, "gradient:\(colour)-white", "-fill", "black", "-draw", "circle 320,240 320,300",
                                     "-quality", "85", path])
        try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", path])
    }

    /// One colour (`rgb` as "30,60,220"), with no colour profile, as most cameras' JPEGs are.
    static func makeUntaggedPhoto(_ name: String, in folder: URL, date: String, rgb: String) throws {
        let path = folder.appendingPathComponent(name).path
        try run("/usr/bin/convert", ["-size", "640x480", "xc:rgb(\(rgb))", "-quality", "95", path])
        try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=\(date)", path])
    }

    /// Copies the first half of `source` to `name`: a truncated JPEG whose header and EXIF still read.
    static func makeTruncated(from source: URL, named name: String, in folder: URL) throws {
        let data = try Data(contentsOf: source)
        try data.prefix(data.count / 2).write(to: folder.appendingPathComponent(name))
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ToolFailure(description: "\(tool) \(arguments) exited with \(process.terminationStatus)") }
    }
}

/// A command-line tool a fixture needs failed.
struct ToolFailure: Error, CustomStringConvertible {
    var description: String
}
