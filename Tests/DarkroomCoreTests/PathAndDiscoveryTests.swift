import DarkroomCore
import DarkroomTestSupport
import XCTest
import DarkroomModel
import DarkroomOptions

final class PathTemplateTests: XCTestCase {
    func testRendersValidatedDateFieldsAndTheId() throws {
        let template = try PathTemplate("Photos/{yyyy}/{MM}/{dd}/{id}.heic")
        let date = try XCTUnwrap(LocalDateTime(year: 2024, month: 2, day: 9, hour: 7))
        var values = PathTemplate.dateValues(date)
        values["id"] = "abc"
        XCTAssertEqual(try template.render(values), "Photos/2024/02/09/abc.heic")
    }

    func testRejectsPathsThatCouldLeaveTheLibrary() {
        for bad in ["/etc/{id}", "../{id}.jpg", "a/../../{id}", "a//{id}", ""] {
            XCTAssertThrowsError(try PathTemplate(bad), bad)
        }
    }

    func testNameFieldCannotInjectFolders() throws {
        let template = try PathTemplate("x/{name}.jpg")
        XCTAssertEqual(try template.render(["name": "../../etc/passwd"]), "x/_._.._etc_passwd.jpg")
        XCTAssertEqual(try template.render(["name": ".hidden"]), "x/_hidden.jpg")
    }

    func testImpossibleDatesAreNotDates() {
        XCTAssertNil(LocalDateTime(year: 2023, month: 2, day: 29))
        XCTAssertNotNil(LocalDateTime(year: 2024, month: 2, day: 29))
        XCTAssertNil(LocalDateTime(year: 2024, month: 13, day: 1))
        XCTAssertNil(LocalDateTime(year: 2024, month: 1, day: 1, hour: 24))
    }

    func testContentUUIDIsStableAndVersioned() {
        let hash = ContentHash.of("the same bytes")
        XCTAssertEqual(hash, "7d95d9eeb9c191ad25da1c2014f6985c9a3094bf5065029ea0a79767f0522ce6", "SHA-256, as sha256sum prints it")
        // The first 16 bytes of the hash, with the version (8) and variant bits set: the same photo always gets this id.
        XCTAssertEqual(ContentHash.uuid(fromHex: hash).uuidString.lowercased(), "7d95d9ee-b9c1-81ad-a5da-1c2014f6985c")
        XCTAssertNotEqual(ContentHash.uuid(fromHex: hash), ContentHash.uuid(fromHex: ContentHash.of("other bytes")))
    }

    func testAFileIsHashedInChunksAsSha256sumDoes() throws {
        XCTAssertEqual(ContentHash.of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let folder = try TemporaryFolder("hash")
        // 2.5 MiB: three reads of 1 MiB, the last one short.
        let bytes = Data((0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let file = folder.path("big.bin")
        try bytes.write(to: file)
        XCTAssertEqual(try ContentHash.ofFile(file), ContentHash.of(bytes))
        let sha256sum = Process()
        sha256sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        sha256sum.arguments = [file.path]
        let out = Pipe()
        sha256sum.standardOutput = out
        try sha256sum.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sha256sum.waitUntilExit()
        XCTAssertEqual(try ContentHash.ofFile(file), String(printed.prefix(64)))
    }
}

final class DiscoveryTests: XCTestCase {
    func testGlobs() throws {
        let photos = try XCTUnwrap(Glob("**/*.{jpg,heic}"))
        XCTAssertTrue(photos.matches("a.JPG"))
        XCTAssertTrue(photos.matches("x/y/b.heic"))
        XCTAssertFalse(photos.matches("x/y/b.png"))
        XCTAssertTrue(try XCTUnwrap(Glob("**/.*")).matches("DCIM/.thumbs"))
        XCTAssertFalse(try XCTUnwrap(Glob("*.jpg")).matches("a/b.jpg"))
        XCTAssertNil(Glob("{a,b"))
    }

    /// ASCII paths are matched byte by byte, others by the regular expression: both answer alike.
    func testGlobsAnswerAlikeForASCIIAndOtherNames() throws {
        let media = try XCTUnwrap(Glob("**/*.{jpg,heic,m{p4,ov}}"))
        XCTAssertTrue(media.matches("a/b.MOV"))
        XCTAssertTrue(media.matches("Été/b.mov"))
        XCTAssertTrue(media.matches("c.Mp4"))
        XCTAssertFalse(media.matches("a/b.mp3"))
        XCTAssertFalse(media.matches("a/b.mov/c"))
        XCTAssertFalse(media.matches("Été/b.mp3"))
        let hiddenFolders = try XCTUnwrap(Glob("**/.*/**"))
        XCTAssertTrue(hiddenFolders.matches("a/.x/b.jpg"))
        XCTAssertTrue(hiddenFolders.matches("é/.x/b.jpg"))
        XCTAssertFalse(hiddenFolders.matches("a/x/.b.jpg"))
        XCTAssertFalse(hiddenFolders.matches("é/x/.b.jpg"))
        let rolls = try XCTUnwrap(Glob("DCIM/?{a,b}*/**"))
        XCTAssertTrue(rolls.matches("DCIM/xa1/y.jpg"))
        XCTAssertTrue(rolls.matches("dcim/XB/z"))
        XCTAssertTrue(rolls.matches("DCIM/éa/b"))
        XCTAssertFalse(rolls.matches("DCIM/xc/y"))
        XCTAssertFalse(rolls.matches("DCIM/x/a/y"))
        XCTAssertFalse(try XCTUnwrap(Glob("*.jpg")).matches("a\nb/c.jpg"))
    }

    func testWalksSortedSkipsHiddenLinksAndTheLibrary() throws {
        let folder = try TemporaryFolder("discovery")
        let fm = FileManager.default
        for path in ["in/b.jpg", "in/a/c.jpg", "in/.trash/d.jpg", "in/notes.txt", "in/library/Photos/e.jpg", "outside/f.jpg"] {
            try fm.createDirectory(at: folder.path(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.path(path))
        }
        try fm.createSymbolicLink(atPath: folder.path("in/link.jpg").path, withDestinationPath: folder.path("outside/f.jpg").path)
        try fm.createSymbolicLink(atPath: folder.path("in/loop").path, withDestinationPath: folder.path("in").path)
        let discovery = Discovery(spec: InputSpec(), avoiding: [folder.path("in/library")])
        let (found, skipped) = discovery.files(in: [folder.path("in")])
        XCTAssertEqual(found.map(\.relativePath), ["a/c.jpg", "b.jpg"])
        let reasons = Dictionary(uniqueKeysWithValues: skipped.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        XCTAssertEqual(reasons, ["d.jpg": "in the hidden folder .trash", "link.jpg": "symbolic link not followed",
                                 "loop": "symbolic link not followed", "notes.txt": "not a photo or video: .txt"],
                       "every file but the library's is found or passed over with its reason")
    }

    /// A camera roll as it is: every file ends found or passed over, said by what it is.
    func testEveryFileIsFoundOrPassedOverWithWhatItIs() throws {
        let folder = try TemporaryFolder("discovery-roll")
        let names = ["IMG_0100.HEIC", "IMG_0100.AAE", "IMG_0101.MOV", "clip.mp4", "DSC_0001.NEF", "DSC_0001.JPG", "DSC_0001.JPG.xmp",
                     "notes.txt", "README", ".DS_Store", "Thumbs/.hidden.jpg"]
        for name in names {
            try FileManager.default.createDirectory(at: folder.path("in/" + name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.path("in/" + name))
        }
        let (found, skipped) = Discovery(spec: InputSpec()).files(in: [folder.path("in")])
        XCTAssertEqual(found.map(\.relativePath), ["DSC_0001.JPG", "IMG_0100.HEIC"])
        XCTAssertEqual(found.count + skipped.count, names.count, "nothing left out silently")
        let byName = Dictionary(uniqueKeysWithValues: skipped.map { (($0.path as NSString).lastPathComponent, "\($0.kind): \($0.reason)") })
        XCTAssertEqual(byName, [
            "IMG_0100.AAE": ".AAE edit sidecar: Apple edit sidecar (.AAE) of IMG_0100.HEIC",
            "IMG_0101.MOV": ".mov video: video (.MOV): this pipeline takes photos only",
            "clip.mp4": ".mp4 video: video (.mp4): this pipeline takes photos only",
            "DSC_0001.NEF": ".nef RAW photo: RAW photo (.NEF): not in the pipeline's include globs",
            "DSC_0001.JPG.xmp": ".xmp sidecar: XMP sidecar of DSC_0001.JPG",
            "notes.txt": ".txt file: not a photo or video: .txt",
            "README": "extensionless file: not a photo or video: no extension",
            ".DS_Store": "hidden file: hidden file",
            ".hidden.jpg": "hidden file: hidden file",
        ])
    }

    /// One input of year and month folders is walked a top folder a thread: it finds what walking one
    /// folder after the other finds, in the same order (the order a run imports and reports in), and a
    /// link followed into a sibling folder still finds each file once.
    func testTheFoldersOfOneInputWalkedAtOnceFindWhatOneAtATimeFinds() throws {
        let folder = try TemporaryFolder("discovery-subfolders")
        for path in ["in/2023/12/b.jpg", "in/2023/12/a.jpg", "in/2024/01/c.jpg", "in/2024/01/c.AAE", "in/2024/02/d.jpg",
                     "in/2024/notes.txt", "in/0.jpg", "in/2023.jpg", "in/z.jpg", "in/.trash/x.jpg"] {
            try FileManager.default.createDirectory(at: folder.path(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: folder.path(path))
        }
        let discovery = Discovery(spec: InputSpec())
        let atOnce = discovery.files(in: [folder.path("in")])
        XCTAssertEqual(atOnce.found.map(\.relativePath), ["0.jpg", "2023/12/a.jpg", "2023/12/b.jpg", "2023.jpg", "2024/01/c.jpg", "2024/02/d.jpg", "z.jpg"])
        XCTAssertEqual(atOnce.skipped.map { ($0.path as NSString).lastPathComponent }, ["x.jpg", "c.AAE", "notes.txt"])
        // The same folder given twice is walked one folder after the other (and once).
        let oneAtATime = discovery.files(in: [folder.path("in"), folder.path("in")])
        XCTAssertEqual(atOnce.found, oneAtATime.found)
        XCTAssertEqual(atOnce.skipped, oneAtATime.skipped)

        try FileManager.default.createSymbolicLink(atPath: folder.path("in/2024/again").path, withDestinationPath: folder.path("in/2023").path)
        let following = Discovery(spec: InputSpec(followSymlinks: true)).files(in: [folder.path("in")])
        XCTAssertEqual(following.found.map(\.relativePath), ["0.jpg", "2023/12/a.jpg", "2023/12/b.jpg", "2023.jpg", "2024/01/c.jpg", "2024/02/d.jpg", "z.jpg"],
                       "a folder reached twice is walked once")
    }

    func testFollowingLinksDoesNotLoop() throws {
        let folder = try TemporaryFolder("discovery-follow")
        try FileManager.default.createDirectory(at: folder.path("in/sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.path("in/sub/a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("in/sub/loop").path, withDestinationPath: folder.path("in").path)
        let (found, _) = Discovery(spec: InputSpec(followSymlinks: true)).files(in: [folder.path("in")])
        XCTAssertEqual(found.map(\.relativePath), ["sub/a.jpg"])
    }
}

final class MediaKindTests: XCTestCase {
    func testAFileIsAVideoByItsExtensionWhateverItsCase() {
        XCTAssertEqual(["IMG_0001.MOV", "/card/DCIM/clip.mp4", "a.b.M2TS", "trip.webm"].map { MediaKind(fileName: $0) }, [.video, .video, .video, .video])
        XCTAssertEqual(["IMG_0001.HEIC", "photo.jpg", "mov", ".mov", "/card/x.mov/readme", "movie."].map { MediaKind(fileName: $0) },
                       [.photo, .photo, .photo, .photo, .photo, .photo])
    }
}
