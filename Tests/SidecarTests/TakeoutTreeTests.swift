import DarkroomSidecars
import DarkroomTestSupport
import Foundation
import XCTest

/// A Takeout export laid out on disk (a year folder and an album), read the way an importer would:
/// one `SidecarIndex` per folder from its listing, every file ending in a reported state, and each
/// photo's capture time read from the JSON it was matched to.
final class TakeoutTreeTests: XCTestCase {
    /// (folder, media file, its JSON or nil, the `title` and capture time Takeout wrote in that JSON)
    private let layout: [(folder: String, media: String, json: String?, title: String, taken: Int)] = [
        ("Photos from 2019", "IMG_0001.JPG", "IMG_0001.JPG.json", "IMG_0001.JPG", 1_551_123_684),
        ("Photos from 2019", "IMG_0001(1).JPG", "IMG_0001.JPG(1).json", "IMG_0001.JPG", 1_551_123_700),
        ("Photos from 2019", "IMG_0002.HEIC", "IMG_0002.HEIC.supplemental-metadata.json", "IMG_0002.HEIC", 1_551_200_000),
        ("Photos from 2019", "IMG_0002(1).HEIC", "IMG_0002.HEIC.supplemental-metadata(1).json", "IMG_0002.HEIC", 1_551_200_100),
        ("Photos from 2019", "IMG_0003-edited.jpg", nil, "", 0),
        ("Photos from 2019", "IMG_0003.jpg", "IMG_0003.jpg.supplemental-metadata.json", "IMG_0003.jpg", 1_551_300_000),
        ("Photos from 2019", "Screenshot_20190301-101010_Long_App_Name_ab.png",  // 47 characters
         "Screenshot_20190301-101010_Long_App_Name_ab.pn.json", "Screenshot_20190301-101010_Long_App_Name_ab.png", 1_551_435_010),
        ("Photos from 2019", "PXL_20190302_111111111.NIGHT.jpg", "PXL_20190302_111111111.NIGHT.jpg.supplemental-.json",
         "PXL_20190302_111111111.NIGHT.jpg", 1_551_525_071),
        ("Photos from 2019", "VID_20190303_121212.mp4", "VID_20190303_121212.json", "VID_20190303_121212.mp4", 1_551_615_132),
        ("Trip to Kyoto", "IMG_0001.JPG", "IMG_0001.JPG.json", "IMG_0001.JPG", 1_551_123_684),
        ("Trip to Kyoto", "DSC00042(2).JPG", "DSC00042.JPG.supplemental-metadata(2).json", "DSC00042.JPG", 1_551_700_000),
    ]
    /// Files that are no photo's sidecar, with what they are.
    private let others: [(folder: String, name: String, role: SidecarRole)] = [
        ("Trip to Kyoto", "metadata.json", .albumMetadata),
        ("Photos from 2019", "IMG_0099.jpg.supplemental-metadata.json", .unmatchedJSON(looksLikeMetadataOf: "IMG_0099.jpg")),
        ("", "print-subscriptions.json", .takeoutAccountData),
    ]

    func testEveryFileOfATakeoutTreeEndsInAReportedState() throws {
        let root = try TemporaryFolder("takeout-tree")
        let photos = root.path("Takeout/Google Photos")
        for entry in layout {
            let folder = photos.appendingPathComponent(entry.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: folder.appendingPathComponent(entry.media))
            if let json = entry.json {
                let text = #"{"title": "\#(entry.title)", "photoTakenTime": {"timestamp": "\#(entry.taken)"}, "creationTime": {"timestamp": "1600000000"}}"#
                try Data(text.utf8).write(to: folder.appendingPathComponent(json))
            }
        }
        for other in others {
            try Data(#"{"title": "Kyoto 2019"}"#.utf8).write(to: photos.appendingPathComponent(other.folder).appendingPathComponent(other.name))
        }

        var reported: [String: String] = [:]  // relative path -> what the importer would say
        var capture: [String: Int] = [:]
        for folderName in ["", "Photos from 2019", "Trip to Kyoto"] {
            let folder = photos.appendingPathComponent(folderName)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") && !["Photos from 2019", "Trip to Kyoto"].contains($0) }
            let index = SidecarIndex(names: names)
            for name in names {
                let path = folderName.isEmpty ? name : "\(folderName)/\(name)"
                if MediaFileNames.isMedia(name) {
                    let takeout = index.sidecars(of: name).first { $0.kind == .takeoutJSON }
                    reported[path] = takeout.map { "media with \($0.name)" } ?? "media without sidecar"
                    if let takeout {
                        let metadata = try TakeoutMetadata(contentsOf: folder.appendingPathComponent(takeout.name))
                        capture[path] = metadata.photoTakenTime.map { Int($0.timeIntervalSince1970) }
                    }
                } else {
                    reported[path] = try XCTUnwrap(index.role(of: name), path).reason
                }
            }
        }

        for entry in layout {
            let path = "\(entry.folder)/\(entry.media)"
            let json = entry.json ?? (entry.media == "IMG_0003-edited.jpg" ? "IMG_0003.jpg.supplemental-metadata.json" : nil)
            XCTAssertEqual(reported[path], json.map { "media with \($0)" }, path)
            let taken = entry.json == nil ? 1_551_300_000 : entry.taken
            XCTAssertEqual(capture[path], taken, "\(path) is dated by its JSON, not by the export day")
            if let own = entry.json {
                XCTAssertNotNil(reported["\(entry.folder)/\(own)"]?.hasPrefix("Google Takeout metadata of "), own)
            }
        }
        XCTAssertEqual(reported["Photos from 2019/IMG_0003.jpg.supplemental-metadata.json"],
                       "Google Takeout metadata of IMG_0003.jpg and IMG_0003-edited.jpg")
        for other in others {
            XCTAssertEqual(reported[other.folder.isEmpty ? other.name : "\(other.folder)/\(other.name)"], other.role.reason, other.name)
        }
        XCTAssertEqual(reported.count, layout.count + layout.compactMap(\.json).count + others.count, "every file is reported")
    }
}
