import DarkroomCore
import DarkroomTestSupport
import Foundation
import DarkroomModel

/// The library most gallery tests look at: three months of photos dated every way Darkroom dates
/// them, a camera model that is a script, a portrait, a motion photo, a Live Photo and a video.
///
///     2023-12: IMG_0105.JPG (Live Photo, EXIF)   scan 1.jpg (no date: file time, low confidence)
///     2024-01: IMG_0101.JPG (Canon)   IMG_0102.JPG (portrait)   IMG_0103.JPG (camera "<script>...")
///     2024-02: PXL_20240214_091500123.jpg (date from the name)   IMG_0104.JPG (motion photo)   a video
struct SampleLibrary {
    let fixture: GalleryFixture
    /// The ids of the photos and the video, by card file name (`video` for the video).
    let ids: [String: String]

    static let hostileModel = "<script>alert(\"x\")</script>"

    /// Imports the card, records the video and the Live Photo's video, and makes the gallery.
    static func build(_ label: String) throws -> SampleLibrary {
        let fixture = try GalleryFixture(label)
        var files: [String: URL] = [:]
        files["IMG_0101.JPG"] = try fixture.photo("IMG_0101.JPG", exif: ["-DateTimeOriginal=2024:01:05 10:00:00", "-Make=Canon", "-Model=Canon EOS 40D"])
        files["IMG_0102.JPG"] = try fixture.photo("IMG_0102.JPG", width: 360, height: 480,
                                                  exif: ["-DateTimeOriginal=2024:01:05 11:30:00", "-Make=Apple", "-Model=iPhone 13"])
        files["IMG_0103.JPG"] = try fixture.photo("IMG_0103.JPG", exif: ["-DateTimeOriginal=2024:01:20 16:45:00", "-Make=Evil", "-Model=\(hostileModel)"])
        files["PXL_20240214_091500123.jpg"] = try fixture.photo("PXL_20240214_091500123.jpg")
        files["IMG_0104.JPG"] = try fixture.motionPhoto("IMG_0104.JPG", date: "2024:02:14 12:00:00")
        files["scan 1.jpg"] = try fixture.undatedPhoto("scan 1.jpg", touchDate: "2023-12-31 18:00")
        files["IMG_0105.JPG"] = try fixture.photo("IMG_0105.JPG", exif: ["-DateTimeOriginal=2023:12:24 20:00:00", "-Make=Apple", "-Model=iPhone 13"])
        try fixture.importCard()
        try fixture.livePhotoVideo(of: files["IMG_0105.JPG"]!)
        var ids = try files.mapValues(GalleryFixture.id)
        ids["video"] = try fixture.video(date: LocalDateTime(year: 2024, month: 2, day: 20, hour: 14)!)
        try fixture.makeGallery()
        return SampleLibrary(fixture: fixture, ids: ids)
    }

    /// The tile (`<a class="tile ...">` start tag) of the photo from card file `name` on `page`.
    func tile(_ name: String, on page: String) throws -> String? {
        let id = ids[name]!
        return HTMLScan.tags("a", in: try fixture.page(page)).first { $0.contains("id=\"p-\(id)\"") }
    }
}
