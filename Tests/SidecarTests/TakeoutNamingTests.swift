import DarkroomSidecars
import Foundation
import XCTest

/// Finding a media file's Takeout JSON under every naming Google has used, and saying what every
/// other JSON or XMP file of a folder is. Expected names are real ones reported from Takeout exports
/// (immich-go's matcher tests, GooglePhotosTakeoutHelper and Nextcloud Memories issues, ente's
/// importer notes), written out here rather than computed, so the rule is checked, not restated.
final class TakeoutNamingTests: XCTestCase {
    /// (media file, its JSON as Takeout names it)
    private let reported: [(String, String)] = [
        ("IMG_1234.jpg", "IMG_1234.jpg.json"),
        ("IMG_1235.jpg", "IMG_1235.jpg.supplemental-metadata.json"),
        ("IMG_5678.jpg", "IMG_5678.json"),
        // The new naming cut at 46 characters before ".json".
        ("PXL_20240817_202602411.mp4", "PXL_20240817_202602411.mp4.supplemental-metada.json"),
        ("Screenshot_2017-07-05-10-05-26.png", "Screenshot_2017-07-05-10-05-26.png.supplementa.json"),
        ("Screenshot_20241227_105539_Edge.jpg", "Screenshot_20241227_105539_Edge.jpg.supplement.json"),
        ("D7157814-D2D5-4A62-AFCE-9CF465CB7D66.jpeg", "D7157814-D2D5-4A62-AFCE-9CF465CB7D66.jpeg.supp.json"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmn.jpg", "ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmn.jpg..json"),
        // The file name itself cut.
        ("Screenshot_20220207_102421_com.snapchat.android.jpg", "Screenshot_20220207_102421_com.snapchat.androi.json"),
        ("PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGINA.jpg", "PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGIN.json"),
        ("05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jpg", "05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jp.json"),
        ("original_1d4caa6f-16c6-4c3d-901b-9387de10e528_P.jpg", "original_1d4caa6f-16c6-4c3d-901b-9387de10e528_.json"),
        // Google counts UTF-16 code units: these 23 emoji (one with a variation selector) are 46.
        ("😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛.jpg", "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋.json"),
        // Duplicates: the counter after the extension, after the cut name.
        ("DSC_0101(1).JPG", "DSC_0101.JPG(1).json"),
        ("IMG_2710(1).HEIC", "IMG_2710.HEIC(1).json"),
        ("IMG_3000(1).jpg", "IMG_3000.jpg.supplemental-metadata(1).json"),
        ("13039_327707840323_537645323_9470255_27214_n(1).jpg", "13039_327707840323_537645323_9470255_27214_n.j(1).json"),
        ("Backyard_ceremony_wedding_photography_xxxxxxx_m(494).jpg", "Backyard_ceremony_wedding_photography_xxxxxxx_(494).json"),
        ("skytree (2).jpg", "skytree (2).jpg.supplemental-metadata.json"),
        // Edited copies share their original's JSON, in the account's language.
        ("IMG_4000-edited.jpg", "IMG_4000.jpg.json"),
        ("PXL_20220405_090123740.PORTRAIT-modifié.jpg", "PXL_20220405_090123740.PORTRAIT.jpg.json"),
        ("IMG_4001-bearbeitet.jpg", "IMG_4001.jpg.supplemental-metadata.json"),
        // Odd but real names.
        ("PXL_20210102_221126856.MP~2.jpg", "PXL_20210102_221126856.MP~2.jpg.json"),
        ("PXL_20231118_035751175.MP.jpg", "PXL_20231118_035751175.MP.jpg.json"),
    ]

    func testEveryReportedNamingFindsItsMediaFile() {
        XCTAssertEqual("ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmn.jpg".count, 45, "45 characters leave room for the dot only")
        XCTAssertEqual("😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋".utf16.count, 46)
        let index = SidecarIndex(names: reported.flatMap { [$0.0, $0.1] }.shuffled())
        for (media, json) in reported {
            XCTAssertEqual(index.sidecars(of: media).map(\.name), [json], media)
            XCTAssertEqual(index.role(of: json), .takeout(of: [media]), json)
        }
    }

    func testReasonsSayHowTheNameWasMatched() throws {
        let index = SidecarIndex(names: ["PXL_20240817_202602411.mp4", "PXL_20240817_202602411.mp4.supplemental-metada.json",
                                         "IMG_4000.jpg", "IMG_4000-edited.jpg", "IMG_4000.jpg.json", "DSC_0101(1).JPG", "DSC_0101.JPG(1).json"])
        XCTAssertEqual(index.sidecars(of: "PXL_20240817_202602411.mp4").first?.reason,
                       "Google Takeout metadata, named after PXL_20240817_202602411.mp4 with .supplemental-metadata, cut to 46 characters")
        XCTAssertEqual(index.sidecars(of: "IMG_4000-edited.jpg").first?.reason,
                       "Google Takeout metadata of the original IMG_4000.jpg, which this edited copy shares, named after IMG_4000.jpg")
        XCTAssertEqual(index.sidecars(of: "DSC_0101(1).JPG").first?.reason,
                       "Google Takeout metadata, named after DSC_0101.JPG, with the duplicate counter (1) after it")
        XCTAssertEqual(index.role(of: "IMG_4000.jpg.json"), .takeout(of: ["IMG_4000.jpg", "IMG_4000-edited.jpg"]), "the original first")
        XCTAssertEqual(index.role(of: "IMG_4000.jpg.json")?.reason, "Google Takeout metadata of IMG_4000.jpg and IMG_4000-edited.jpg")
    }

    func testLookAlikesDoNotMatch() {
        // From immich-go's matcher tests: a duplicate must not take the original's JSON, nor another counter's.
        let index = SidecarIndex(names: ["DSC_0104(1).JPG", "DSC_0104.JPG.json", "DSC_0102(1).JPG", "DSC_0102.JPG(2).json",
                                         "DSC_0103.JPG", "DSC_0103.JPG(1).json",
                                         "PXL_20211013_220651958.jpg", "PXL_20211013_220651983.jpg.json",
                                         "Backyard_ceremony_wedding_photography_xxxxxxx_m(185).jpg",
                                         "Backyard_ceremony_wedding_photography_xxxxxxx_(494).json"])
        for media in ["DSC_0104(1).JPG", "DSC_0102(1).JPG", "DSC_0103.JPG", "PXL_20211013_220651958.jpg",
                      "Backyard_ceremony_wedding_photography_xxxxxxx_m(185).jpg"] {
            XCTAssertEqual(index.sidecars(of: media), [], media)
        }
        XCTAssertEqual(index.role(of: "DSC_0104.JPG.json"), .unmatchedJSON(looksLikeMetadataOf: "DSC_0104.JPG"))
        XCTAssertEqual(index.role(of: "DSC_0102.JPG(2).json"), .unmatchedJSON(looksLikeMetadataOf: "DSC_0102(2).JPG"))
        XCTAssertEqual(index.role(of: "DSC_0104.JPG.json")?.reason,
                       "JSON that matches no photo or video in its folder (its name points at DSC_0104.JPG, which is not there)")
    }

    func testEveryOtherJSONAndXMPHasARole() {
        let index = SidecarIndex(names: ["metadata.json", "Metadaten.json", "métadonnées.json", "print-subscriptions.json",
                                         "shared_album_comments.json", "IMG_9.jpg.supplemental-me.json", "notes.json", "orphan.xmp",
                                         "IMG_1.jpg", "IMG_1.jpg.json", "readme.txt"])
        XCTAssertEqual(index.role(of: "metadata.json"), .albumMetadata)
        XCTAssertEqual(index.role(of: "Metadaten.json"), .albumMetadata)
        XCTAssertEqual(index.role(of: "métadonnées.json"), .albumMetadata)
        XCTAssertEqual(index.role(of: "metadata.json")?.reason, "Google Takeout album metadata (the album's title and description), not a photo's")
        XCTAssertEqual(index.role(of: "print-subscriptions.json"), .takeoutAccountData)
        XCTAssertEqual(index.role(of: "shared_album_comments.json"), .takeoutAccountData)
        XCTAssertEqual(index.role(of: "IMG_9.jpg.supplemental-me.json"), .unmatchedJSON(looksLikeMetadataOf: "IMG_9.jpg"))
        XCTAssertEqual(index.role(of: "notes.json"), .unmatchedJSON(looksLikeMetadataOf: nil))
        XCTAssertEqual(index.role(of: "notes.json")?.reason, "JSON that matches no photo or video in its folder")
        XCTAssertEqual(index.role(of: "orphan.xmp"), .unmatchedXMP)
        XCTAssertEqual(index.role(of: "IMG_1.jpg.json"), .takeout(of: ["IMG_1.jpg"]))
        XCTAssertNil(index.role(of: "IMG_1.jpg"), "a photo is no sidecar")
        XCTAssertNil(index.role(of: "readme.txt"))
    }

    func testXMPSidecarsBothConventionsIgnoringCase() {
        let index = SidecarIndex(names: ["photo.CR2", "photo.jpg", "photo.XMP", "photo.jpg.xmp", "IMG_2.HEIC", "img_2.heic.XMP", "scan.tif"])
        XCTAssertEqual(index.sidecars(of: "photo.jpg").map(\.name), ["photo.jpg.xmp", "photo.XMP"], "photo.jpg.xmp wins")
        XCTAssertEqual(index.sidecars(of: "photo.jpg").map(\.reason), [
            "XMP sidecar named after the whole file name; it wins over photo.XMP, being more specific",
            "XMP sidecar named after the file name without its extension; photo.jpg.xmp is more specific and wins",
        ])
        XCTAssertEqual(index.sidecars(of: "photo.CR2").map(\.name), ["photo.XMP"])
        XCTAssertEqual(index.sidecars(of: "IMG_2.HEIC").map(\.name), ["img_2.heic.XMP"])
        XCTAssertEqual(index.sidecars(of: "scan.tif"), [])
        XCTAssertEqual(index.role(of: "photo.XMP"), .xmp(of: ["photo.CR2", "photo.jpg"]))
        XCTAssertEqual(index.role(of: "photo.jpg.xmp"), .xmp(of: ["photo.jpg"]))
        XCTAssertEqual(index.role(of: "photo.XMP")?.reason, "XMP sidecar of photo.CR2 and photo.jpg")
    }

    func testTheCallerDecidesWhatIsMedia() {
        let names = ["clip.xyz", "clip.xyz.json"]
        XCTAssertEqual(SidecarIndex(names: names).role(of: "clip.xyz.json"), .unmatchedJSON(looksLikeMetadataOf: nil))
        XCTAssertEqual(SidecarIndex(names: names, isMedia: { $0.hasSuffix(".xyz") }).role(of: "clip.xyz.json"), .takeout(of: ["clip.xyz"]))
    }

    func testALargeFolderIsIndexedWhole() {
        // 30,000 photos with their JSON under rotating namings, and 1,000 JSON files whose photo is missing.
        var names: [String] = []
        for number in 0..<30_000 {
            let media = number % 7 == 0 ? "IMG_\(number)(1).jpg" : "IMG_\(number).jpg"
            let json: String
            switch number % 3 {
            case 0: json = number % 7 == 0 ? "IMG_\(number).jpg(1).json" : "IMG_\(number).jpg.json"
            case 1: json = number % 7 == 0 ? "IMG_\(number).jpg.supplemental-metadata(1).json" : "IMG_\(number).jpg.supplemental-metadata.json"
            default: json = number % 7 == 0 ? "IMG_\(number)(1).json" : "IMG_\(number).json"
            }
            names += [media, json]
        }
        names += (0..<1000).map { "lost_\($0).jpg.json" }
        let index = SidecarIndex(names: names)
        for pair in stride(from: 0, to: 60_000, by: 2) {
            XCTAssertEqual(index.sidecars(of: names[pair]).map(\.name), [names[pair + 1]], names[pair])
        }
        XCTAssertEqual(names.filter { index.role(of: $0) == .unmatchedJSON(looksLikeMetadataOf: $0.replacingOccurrences(of: ".json", with: "")) }.count,
                       1000)
    }
}
