import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest

/// The phone folder of `samples/camera-roll` (HEIC photos, a Live Photo's still and MOV, a phone video)
/// imported by the shipped import pipeline, videos and all, then made into a gallery: the video plays
/// from `Videos/`, the Live Photo's motion part from beside its still, and the MOV in `Photos/` is
/// passed over as the motion part it is rather than shown as a photo of its own.
final class SampleVideosTests: XCTestCase {
    func testTheSamplePhoneVideoAndLivePhotoImportedForReal() throws {
        try GalleryFixture.require("ffprobe")
        let fixture = try GalleryFixture("sample-videos")
        let phone = GalleryFixture.repository.appendingPathComponent("samples/camera-roll/Phone")
        try FileManager.default.copyItem(at: phone, to: fixture.card)
        let imported = try fixture.importCard()
        XCTAssertEqual(imported.livePhotoVideos.count, 1, "IMG_4520.MOV is the Live Photo video of IMG_4520.HEIC")
        let gallery = try fixture.makeGallery()
        XCTAssertEqual(gallery.passedOver.map { URL(fileURLWithPath: $0.path).pathExtension }, ["mov"],
                       "the Live Photo's MOV in Photos/ is its still's motion part, not a photo")

        let videoID = try GalleryFixture.id(of: fixture.card.appendingPathComponent("IMG_4531.MOV"))
        let video = try XCTUnwrap(try tile(videoID, on: "2024-06.html", of: fixture), "the phone video, filed by its QuickTime date")
        XCTAssertTrue(video.contains("class=\"tile video\""), video)
        let clip = try XCTUnwrap(HTMLScan.attribute("data-video", of: video))
        XCTAssertEqual(clip, "../Videos/2024/06/\(videoID).mp4")
        let codec = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                                 try XCTUnwrap(HTMLScan.file(clip, from: fixture.gallery)).path])
        XCTAssertEqual(codec.trimmingCharacters(in: .whitespacesAndNewlines), "h264", "the page links a video a browser plays")
        let poster = try XCTUnwrap(HTMLScan.file(try XCTUnwrap(HTMLScan.attribute("data-large", of: video)), from: fixture.gallery))
        let size = try SecondReader.header(poster)
        XCTAssertEqual(max(size.width, size.height), 640, "the larger view's poster frame: the 640 px video, not enlarged")

        let stillID = try GalleryFixture.id(of: fixture.card.appendingPathComponent("IMG_4520.HEIC"))
        let live = try XCTUnwrap(try tile(stillID, on: "2024-05.html", of: fixture), "the Live Photo's still")
        XCTAssertTrue(live.contains("class=\"tile live\""), live)
        let motion = try XCTUnwrap(HTMLScan.attribute("data-motion", of: live))
        XCTAssertEqual(motion, "../Photos/2024/05/\(stillID).mov")
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(HTMLScan.file(motion, from: fixture.gallery)).path))
        let tiles = try fixture.pages().flatMap { try HTMLScan.tags("a", in: fixture.page($0)).filter { $0.contains("class=\"tile") } }
        XCTAssertEqual(tiles.count, 6, "five photos and one video: the Live Photo's MOV is no tile of its own")
    }

    private func tile(_ id: String, on page: String, of fixture: GalleryFixture) throws -> String? {
        HTMLScan.tags("a", in: try fixture.page(page)).first { $0.contains("id=\"p-\(id)\"") }
    }
}
