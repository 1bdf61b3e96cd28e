import DarkroomRuntime
import DarkroomTestSupport
import DarkroomVips
import Foundation
import Synchronization
import XCTest

/// An `Image` is a value: nothing done to it on one thread changes what another thread reads.
final class ImageValueTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    /// An image already in memory: `vips_image_copy_memory` hands back the very same libvips object,
    /// so drawing on "the copy" used to draw on the original for every thread holding it.
    func inMemoryImage() throws -> Image {
        let image = try Image.solid(width: 64, height: 48, colour: Colour(red: 0, green: 0, blue: 255)).materialized()
        XCTAssertEqual(try image.materialized().pixel(x: 10, y: 10), [0, 0, 255])
        return image
    }

    func testDrawingLeavesTheOriginalAsItWas() throws {
        let original = try inMemoryImage()
        let drawn = try original.drawingRectangles([(x: 0, y: 0, width: 32, height: 48)], colour: Colour(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try drawn.pixel(x: 10, y: 10), [255, 0, 0])
        XCTAssertEqual(try original.pixel(x: 10, y: 10), [0, 0, 255], "the original is not drawn on")
        XCTAssertEqual(try original.average(), 255.0 / 3, accuracy: 0.001)
    }

    func testMaterialisingAndDrawingWhileAnotherThreadReads() throws {
        let shared = try inMemoryImage()
        let expected = try shared.pixelBytes()
        let watch = Watch()
        let reader = Thread {
            while !watch.stop.load(ordering: .relaxed) {
                if (try? shared.pixelBytes()) != expected || shared.blob("icc-profile-data") != nil {
                    watch.changes.add(1, ordering: .relaxed)
                }
            }
        }
        reader.start()
        for round in 0..<200 {
            let copy = try shared.materialized()
            let drawn = try copy.drawingRectangles([(x: round % 60, y: 0, width: 4, height: 48)], colour: .white)
            XCTAssertEqual(try drawn.pixel(x: round % 60, y: 20), [255, 255, 255])
        }
        watch.stop.store(true, ordering: .relaxed)
        while !reader.isFinished { usleep(1000) }
        XCTAssertEqual(watch.changes.load(ordering: .relaxed), 0, "the reader saw the shared image change")
        XCTAssertEqual(try shared.pixelBytes(), expected)
    }

    /// With one libvips thread per operation, images are computed in the calling thread, strip by
    /// strip: the same pixels as libvips' thread pool gives, the last short strip included.
    func testComputingInTheCallingThreadGivesThePoolsPixels() throws {
        let folder = try TemporaryFolder("image-value")
        let jpeg = folder.path("photo.jpg")
        try Fixtures.photo(jpeg, width: 1201, height: 907)
        let before = Vips.concurrency
        defer { _ = try? NativeRuntime.start(threadsPerOperation: before) }
        func decoded(threads: Int) throws -> (copy: [UInt8], bytes: [UInt8], width: Int, height: Int) {
            try NativeRuntime.start(threadsPerOperation: threads)
            let copy = try Image.thumbnail(jpeg.path, width: 333, height: 333).materialized()
            let bytes = try Image.thumbnail(jpeg.path, width: 333, height: 333).pixelBytes()
            return ([UInt8](try copy.pixelBytes()), [UInt8](bytes), copy.width, copy.height)
        }
        let pool = try decoded(threads: 2)
        let callingThread = try decoded(threads: 1)
        XCTAssertEqual(pool.width, 333)
        XCTAssertEqual(callingThread.width, pool.width)
        XCTAssertEqual(callingThread.height, pool.height)
        XCTAssertEqual(callingThread.copy.count, 333 * pool.height * 3)
        XCTAssertTrue(callingThread.copy == pool.copy, "materialized(): the same pixels")
        XCTAssertTrue(callingThread.bytes == pool.bytes, "pixelBytes(): the same pixels")
        XCTAssertTrue(callingThread.copy == callingThread.bytes)
    }

    func testMaterialisingGivesTheCopyItsOwnMetadata() throws {
        let folder = try TemporaryFolder("image-value")
        let jpeg = folder.path("photo.jpg")
        try Fixtures.halves(jpeg, width: 64, height: 48, exif: ["-Make=Canon"])
        let opened = try Image.open(jpeg.path)
        let copy = try opened.materialized()
        XCTAssertEqual(copy.exifData, opened.exifData)
        XCTAssertEqual(try copy.materialized().exifData, opened.exifData, "an image in memory comes back as it is")
    }
}

/// What a reading thread saw, and when it should stop.
private final class Watch: Sendable {
    let changes = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}
