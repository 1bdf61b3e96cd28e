import DarkroomTestSupport
import Foundation
import Synchronization
import XCTest

/// Motion photos made on the spot from a corpus JPEG and a short MP4 made by the ffmpeg CLI.
///
/// The JPEG structure is written by exiftool, not by the code under test, and each fixture is read
/// back with exiftool, so a misunderstanding of a format cannot hide on both sides.
enum MotionPhotoFixtures {
    /// A small real camera JPEG of the corpus with EXIF and no XMP of its own.
    static let stillPath = "exif-samples/jpg/Canon_40D.jpg"

    /// A one-second 160x120 H.264 MP4 (made once per test run).
    static func video() throws -> Data {
        if let cached = cachedVideo.withLock({ $0 }) { return cached }
        try requireTool("ffmpeg")
        let folder = try TemporaryFolder("motion-video")
        let url = folder.path("clip.mp4")
        try Fixtures.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x120:d=1:r=10", "-c:v", "libx264",
                                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", url.path])
        let data = try Data(contentsOf: url)
        cachedVideo.withLock { $0 = data }
        return data
    }
    private static let cachedVideo = Mutex<Data?>(nil)

    /// The corpus still, copied to `url` (writable).
    static func still(_ url: URL) throws -> Data {
        let data = try Data(contentsOf: try Corpus.file(stillPath))
        try data.write(to: url)
        return data
    }

    /// A Google Motion Photo: the still with `GCamera:MotionPhoto="1"` and a Container directory
    /// (written by exiftool from a packet of ours, as Pixel phones write it) whose video item has
    /// `declaredLength`, then `appended` bytes at the end.
    static func googleMotionPhoto(_ url: URL, declaredLength: Int, appended: Data) throws {
        _ = try still(url)
        let packet = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".xmp")
        try Data(googleXMP(videoLength: declaredLength).utf8).write(to: packet)
        try exiftool(["-XMP<=\(packet.path)", url.path])
        let readBack = try exiftool(["-a", "-s3", "-XMP-GCamera:MotionPhoto", "-XMP-Container:DirectoryItemLength", url.path])
        XCTAssertEqual(readBack.split(separator: "\n"), ["1", "0", "\(declaredLength)"], "exiftool reads the fixture's XMP")
        try append(appended, to: url)
    }

    /// Google's older Micro Video: exiftool writes `GCamera:MicroVideo` and `MicroVideoOffset`.
    static func microVideo(_ url: URL, declaredOffset: Int, appended: Data) throws {
        _ = try still(url)
        try exiftool(["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                      "-XMP-GCamera:MicroVideoOffset=\(declaredOffset)", url.path])
        try append(appended, to: url)
    }

    /// A Samsung JPEG motion photo: the still, then a trailer whose `MotionPhoto_Data` record holds
    /// `video`, then an `SEFH`/`SEFT` directory (the layout exiftool's Samsung module reads).
    static func samsungMotionPhoto(_ url: URL, video: Data) throws {
        let still = try still(url)
        var file = still
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let name = Array("MotionPhoto_Data".utf8)
        let recordStart = file.count
        file += [0x00, 0x00, 0x30, 0x0A] + le32(name.count) + name
        file += video
        let recordSize = file.count - recordStart
        let directoryStart = file.count
        var directory = Array("SEFH".utf8) + le32(106) + le32(1)
        directory += [0x00, 0x00, 0x30, 0x0A] + le32(directoryStart - recordStart) + le32(recordSize)
        file += directory + le32(directory.count) + Array("SEFT".utf8)
        try file.write(to: url)
        XCTAssertEqual(try exiftool(["-s3", "-EmbeddedVideoType", url.path]), "MotionPhoto_Data\n", "exiftool reads the trailer")
    }

    /// A plain JPEG at `url` with the MotionPhoto XMP of `googleMotionPhoto` but nothing appended.
    static func googleXMP(videoLength: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about=""
                xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
                xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
              GCamera:MotionPhoto="1"
              GCamera:MotionPhotoVersion="1"
              GCamera:MotionPhotoPresentationTimestampUs="500000">
              <Container:Directory>
                <rdf:Seq>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/>
                  </rdf:li>
                  <rdf:li rdf:parseType="Resource">
                    <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(videoLength)"/>
                  </rdf:li>
                </rdf:Seq>
              </Container:Directory>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """
    }

    static func append(_ data: Data, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    @discardableResult
    static func exiftool(_ arguments: [String]) throws -> String {
        try requireTool("exiftool")
        return try Fixtures.run("exiftool", ["-q", "-q", "-overwrite_original"] + arguments)
    }

    /// Skips (fails under CI) when `tool` is not installed.
    static func requireTool(_ tool: String) throws {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        if !found { throw Prerequisite.missing("\(tool) is not installed (scripts/setup.sh --tests installs it)") }
    }
}
