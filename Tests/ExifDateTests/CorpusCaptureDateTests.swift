import DarkroomCore
import DarkroomExif
import DarkroomTestSupport
import ExifDateStage
import Foundation
import XCTest
import DarkroomModel

/// The `exif-date` stage on real files of the shared corpus, checked against what exiftool says.
final class CorpusCaptureDateTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    let settings = RunSettings(library: FileManager.default.temporaryDirectory, timeZone: TimeZone(identifier: "UTC")!)

    func run(_ url: URL, options: ExifDateOptions = ExifDateOptions()) throws -> (Item, CaptureDateDecision) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let item = Item(source: url, relativePath: url.lastPathComponent, contentHash: String(repeating: "ab", count: 32),
                        fileSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                        modificationDate: attributes[.modificationDate] as? Date ?? Date())
        let decision = try ExifDate(options: options).apply(to: item, settings: settings)
        return (item, decision)
    }

    static func exifFormat(_ d: LocalDateTime) -> String {
        String(format: "%04d:%02d:%02d %02d:%02d:%02d", d.year, d.month, d.day, d.hour, d.minute, d.second)
    }

    static func offsetText(_ seconds: Int) -> String {
        String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// Files where exiftool's DateTimeOriginal comes from metadata Darkroom does not read (maker
    /// notes, vendor segments, IPTC), or where the configured precedence picks another source.
    static let knownDisagreements: [String: String] = [
        "exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg": "date only in Reconyx maker notes; EXIF has no date tags",
        "exif-samples/jpg/exif-org/olympus-d320l.jpg": "no EXIF; date in a JFXX PictureInfo segment",
        "exif-samples/jpg/exif-org/sony-powershota5.jpg": "no EXIF; date in a JFXX PictureInfo segment",
        "exiftool-t-images/t/images/CasioQVCI.jpg": "no EXIF; date in a Casio QVCI segment",
        "metadata-extractor-images/jpg/FLIR iPhone device.jpg": "date only in the FLIR APP1 segment",
        "exiftool-t-images/t/images/PhotoMechanic.jpg": "no EXIF; time only in IPTC and photomechanic:TimeCreated",
        "immich-test-assets/metadata/gps-position/thompson-springs.jpg":
            "no EXIF date; GPS (UTC) comes before XMP photoshop:DateCreated, exiftool's value is IPTC's",
    ]

    /// Every readable file exiftool finds a DateTimeOriginal in gets that date (and its offset), unless
    /// the value is one Darkroom must refuse (zero, malformed, in the future): then another source decides.
    func testChosenDateMatchesExiftoolsDateTimeOriginal() throws {
        let root = try Corpus.requireRoot()
        let tomorrow = Date().addingTimeInterval(CaptureDateResolver.futureTolerance)
        var mismatches: [String] = []
        var checked = 0, refused = 0, heic = 0
        for entry in try Corpus.manifest() where !entry.dateTimeOriginal.isEmpty && !entry.isBad
            && Self.knownDisagreements[entry.path] == nil {
            let expected = String(entry.dateTimeOriginal.prefix(19))
            let expectedDate = LocalDateTime(year: Int(expected.prefix(4)) ?? 0, month: Int(expected.dropFirst(5).prefix(2)) ?? 0,
                                             day: Int(expected.dropFirst(8).prefix(2)) ?? 0, hour: Int(expected.dropFirst(11).prefix(2)) ?? 0,
                                             minute: Int(expected.dropFirst(14).prefix(2)) ?? 0, second: Int(expected.dropFirst(17).prefix(2)) ?? 0)
            let mustRefuse = expectedDate == nil || expectedDate!.instant(utcOffsetSeconds: 0) > tomorrow
            let date: CaptureDate
            do {
                guard let chosen = try run(root.appendingPathComponent(entry.path)).1.date else {
                    mismatches.append("\(entry.path): no date"); continue
                }
                date = chosen
            } catch {
                mismatches.append("\(entry.path): \(error)"); continue
            }
            if mustRefuse {
                refused += 1
                if date.source == .exifOriginal {
                    mismatches.append("\(entry.path): implausible DateTimeOriginal '\(entry.dateTimeOriginal)' was used: \(date)")
                }
                continue
            }
            checked += 1
            if entry.fileType == "HEIC" { heic += 1 }
            let got = Self.exifFormat(date.local)
            if got != expected {
                mismatches.append("\(entry.path): expected \(expected), got \(got) from \(date)")
            }
            if !entry.offsetTimeOriginal.isEmpty {
                let offset = date.utcOffsetSeconds.map(Self.offsetText) ?? "none"
                if offset != entry.offsetTimeOriginal || date.timeZoneSource != .metadata {
                    mismatches.append("\(entry.path): expected offset \(entry.offsetTimeOriginal), got \(offset) (\(date))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 150)
        XCTAssertGreaterThan(heic, 5, "HEIC files are part of the check")
        XCTAssertGreaterThan(refused, 5)
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) of \(checked + refused) files disagree with exiftool:\n"
                      + mismatches.joined(separator: "\n"))
    }

    /// Every readable corpus file, of every format, gets a date (at worst the file time) and says where from.
    func testEveryReadableFileGetsADate() throws {
        let root = try Corpus.requireRoot()
        var failures: [String] = []
        var sources: [CaptureDate.Source: Int] = [:]
        for entry in try Corpus.manifest() where !entry.isBad {
            do {
                let (item, _) = try run(root.appendingPathComponent(entry.path))
                guard let date = item.captureDate else { failures.append("\(entry.path): no date"); continue }
                sources[date.source, default: 0] += 1
            } catch {
                failures.append("\(entry.path): \(error)")
            }
        }
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
        for source in [CaptureDate.Source.exifOriginal, .exifDigitized, .xmp, .fileModified] {
            XCTAssertGreaterThan(sources[source] ?? 0, 0, "some corpus file is dated from \(source.rawValue)")
        }
    }

    /// Nikon E885 wrote `0000:00:00 00:00:00`: the stage says so and takes the next source.
    func testZeroDateFallsThroughToTheNextSource() throws {
        let (item, decision) = try run(try Corpus.file("metadata-extractor-images/jpg/Nikon E885.jpg"))
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertNotEqual(date.source, .exifOriginal)
        XCTAssertEqual(decision.rejected.first?.field, "DateTimeOriginal")
        XCTAssertEqual(decision.rejected.first?.reason, .zero)
        XCTAssertEqual(item.camera, "NIKON E885")
    }

    func testWithoutFallbackAPhotoWithNoDateFailsWithTheReasons() throws {
        let url = try Corpus.file("metadata-extractor-images/jpg/Nikon E885.jpg")
        let options = ExifDateOptions(sources: [.exifOriginal], fallbackToFileTime: false)
        XCTAssertThrowsError(try run(url, options: options)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("no capture date found in exif-original (fallback-to-file-time is off)"), text)
            XCTAssertTrue(text.contains("DateTimeOriginal '0000:00:00 00:00:00': all zeros"), text)
        }
    }

    /// A file that has only a CreateDate with an offset is dated from it.
    func testCreateDateIsUsedWhenThereIsNoDateTimeOriginal() throws {
        let (item, _) = try run(try Corpus.file("metadata-extractor-images/jpg/Multiple ICC segments.jpg"))
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(Self.exifFormat(date.local), "2014:12:18 17:36:40")
        XCTAssertTrue([.exifDigitized, .xmp].contains(date.source), "\(date)")
    }

    func testIPhoneHEICGetsDateOffsetAndCamera() throws {
        let (item, _) = try run(try Corpus.file("exif-samples/heic/IMG_5195.HEIC"))
        let date = try XCTUnwrap(item.captureDate)
        XCTAssertEqual(Self.exifFormat(date.local), "2021:04:11 15:47:53")
        XCTAssertEqual(date.local.nanosecond, 54_000_000, "SubSecTimeOriginal")
        XCTAssertEqual(date.utcOffsetSeconds, -5 * 3600)
        XCTAssertEqual(date.source, .exifOriginal)
        XCTAssertEqual(date.timeZoneSource, .metadata)
        XCTAssertEqual(item.camera, "Apple iPhone 11 Pro Max")
    }
}
