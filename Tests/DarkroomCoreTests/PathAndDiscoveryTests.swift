import DarkroomCore
import DarkroomTestSupport
import XCTest

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
        XCTAssertEqual(Set(skipped.map { ($0.path as NSString).lastPathComponent }), ["link.jpg", "loop"])
        XCTAssertTrue(skipped.allSatisfy { $0.reason == "symbolic link not followed" })
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
