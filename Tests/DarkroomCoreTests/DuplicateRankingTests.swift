@testable import DarkroomCore
import Foundation
import XCTest

/// Of byte-identical files, the one a person would call the original.
final class DuplicateRankingTests: XCTestCase {
    func found(_ path: String, minutes: Int64 = 0) -> Discovery.Found {
        Discovery.Found(url: URL(fileURLWithPath: path), relativePath: (path as NSString).lastPathComponent, size: 1,
                        modificationDate: Date(), modificationNanoseconds: 1_700_000_000_000_000_000 + minutes * 60_000_000_000, inode: 1)
    }

    func original(_ files: [Discovery.Found]) -> String {
        files[DuplicateRanking.original(among: files)].url.path
    }

    func testTheCamerasFolderBeatsABackupCopy() {
        XCTAssertEqual(original([found("/roll/Backup/IMG_0001 (copy).JPG"), found("/roll/DCIM/100CANON/IMG_0001.JPG")]),
                       "/roll/DCIM/100CANON/IMG_0001.JPG")
        XCTAssertEqual(original([found("/a/Backup/IMG_0001.JPG"), found("/card/101APPLE/IMG_0001.JPG")]), "/card/101APPLE/IMG_0001.JPG")
    }

    func testTheFileModifiedFirstWinsWhateverItsFolder() {
        XCTAssertEqual(original([found("/roll/DCIM/100CANON/IMG_0001.JPG", minutes: 90), found("/roll/Backup/IMG_0001.JPG")]),
                       "/roll/Backup/IMG_0001.JPG")
        // Seconds apart (a checkout, a copy that kept its time) is the same time.
        XCTAssertEqual(original([found("/roll/Backup/IMG_0001.JPG"), found("/roll/DCIM/100CANON/IMG_0001.JPG")]),
                       "/roll/DCIM/100CANON/IMG_0001.JPG")
    }

    func testANameWithoutACopyMarkerWins() {
        XCTAssertEqual(original([found("/p/IMG_1 (1).jpg"), found("/p/IMG_1.jpg")]), "/p/IMG_1.jpg")
        XCTAssertEqual(original([found("/p/IMG_1 - Copy.jpg"), found("/q/IMG_1.jpg")]), "/q/IMG_1.jpg")
        XCTAssertEqual(original([found("/p/photo copy.jpg"), found("/p/zzz.jpg")]), "/p/zzz.jpg")
        XCTAssertFalse(DuplicateRanking.hasCopyMarker("copyright-2019.jpg"))
        XCTAssertFalse(DuplicateRanking.hasCopyMarker("IMG_2019(1)x.jpg"))
    }

    func testOtherwiseTheShorterPathThenPathOrder() {
        XCTAssertEqual(original([found("/photos/2024/a.jpg"), found("/photos/a.jpg")]), "/photos/a.jpg")
        XCTAssertEqual(original([found("/b/a.jpg"), found("/a/a.jpg")]), "/a/a.jpg")
    }
}
