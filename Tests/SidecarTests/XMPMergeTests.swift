import DarkroomSidecars
import DarkroomTestSupport
import DarkroomXMP
import Foundation
import XCTest

/// Merging a photo's embedded XMP with its sidecar: the sidecar's rating, keywords, people and
/// labels appear, what only the photo had is kept, the sidecar wins a conflict; the result is a
/// packet exiftool writes into a JPEG and reads back.
final class XMPMergeTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("xmp-merge")
    }

    /// A JPEG whose embedded XMP has a title, a caption, a rating, a label and a Windows people tag,
    /// and a sidecar (both written by exiftool) with another rating, caption and label, keywords,
    /// hierarchical keywords, a face region and a person.
    private func photoAndSidecar() throws -> (photo: URL, embedded: Data, sidecar: Data) {
        let photo = folder.path("IMG_1.jpg"), sidecar = folder.path("IMG_1.xmp")
        try Fixtures.run("convert", ["-size", "64x48", "xc:gray", photo.path])
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-dc:Title=Embedded title", "-XMP-dc:Description=old caption",
                                      "-XMP-xmp:Rating=1", "-XMP-xmp:Label=Blue",
                                      "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob,Rectangle=0.1|, 0.1|, 0.2|, 0.2}]}", photo.path])
        try Fixtures.run("exiftool", ["-q", "-XMP-xmp:Rating=4", "-XMP-dc:Subject=beach", "-XMP-dc:Subject=sun",
                                      "-XMP-dc:Description=new caption", "-XMP-lr:HierarchicalSubject=Places|Beach", "-XMP-xmp:Label=Red",
                                      "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=64,H=48,Unit=pixel},"
                                          + "RegionList=[{Area={X=0.5,Y=0.5,W=0.1,H=0.1,Unit=normalized},Name=Alice,Type=Face}]}",
                                      "-XMP-iptcExt:PersonInImage=Alice", sidecar.path])
        // The photo's own packet, as exiftool extracts it.
        let embedded = Data(try Fixtures.run("exiftool", ["-b", "-XMP", photo.path]).utf8)
        XCTAssertTrue(String(decoding: embedded, as: UTF8.self).contains("Embedded title"))
        return (photo, embedded, try Data(contentsOf: sidecar))
    }

    func testSidecarPropertiesJoinTheEmbeddedOnesAndWinConflicts() throws {
        let (_, embedded, sidecar) = try photoAndSidecar()
        let merged = try XMPPacket(data: try XMPSidecar.merged(embedded: embedded, sidecar: sidecar))
        let dc = XMPNamespace.dc, xmp = XMPNamespace.xmp
        XCTAssertEqual(merged[xmp, "Rating"]?.text, "4", "the sidecar wins")
        XCTAssertEqual(merged[xmp, "Label"]?.text, "Red")
        XCTAssertEqual(merged[dc, "description"]?.text, "new caption")
        XCTAssertEqual(merged[dc, "title"]?.text, "Embedded title", "kept: the sidecar has no title")
        XCTAssertEqual(merged[dc, "subject"]?.texts, ["beach", "sun"])
        XCTAssertEqual(merged[XMPNamespace.lightroom, "hierarchicalSubject"]?.texts, ["Places|Beach"])
        XCTAssertEqual(merged[XMPNamespace.iptcExtension, "PersonInImage"]?.texts, ["Alice"])
        let regions = merged[XMPNamespace.mwgRegions, "Regions"]?[XMPName(XMPNamespace.mwgRegions, "RegionList")]?.items
        XCTAssertEqual(regions?.first?[XMPName(XMPNamespace.mwgRegions, "Name")]?.text, "Alice")
        let windowsPeople = merged[XMPNamespace.microsoftPhoto, "RegionInfo"]?[XMPName(XMPNamespace.microsoftRegionInfo, "Regions")]?.items
        XCTAssertEqual(windowsPeople?.first?[XMPName(XMPNamespace.microsoftRegion, "PersonDisplayName")]?.text, "Bob", "kept from the photo")
    }

    func testExiftoolWritesTheMergedPacketIntoAJPEGAndReadsItBack() throws {
        let (photo, embedded, sidecar) = try photoAndSidecar()
        let mergedURL = folder.path("merged.xmp")
        try XMPSidecar.merged(embedded: embedded, sidecar: sidecar).write(to: mergedURL)
        let copy = folder.path("copy.jpg")
        try FileManager.default.copyItem(at: photo, to: copy)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-xmp<=\(mergedURL.path)", copy.path])
        let json = try Fixtures.run("exiftool", ["-j", "-struct", "-XMP:all", copy.path])
        let tags = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(tags["Rating"] as? Int, 4)
        XCTAssertEqual(tags["Label"] as? String, "Red")
        XCTAssertEqual(tags["Title"] as? String, "Embedded title")
        XCTAssertEqual(tags["Description"] as? String, "new caption")
        XCTAssertEqual(tags["Subject"] as? [String], ["beach", "sun"])
        XCTAssertEqual(tags["HierarchicalSubject"] as? [String], ["Places|Beach"])
        XCTAssertEqual(tags["PersonInImage"] as? [String], ["Alice"])
        let regionList = (tags["RegionInfo"] as? [String: Any])?["RegionList"] as? [[String: Any]]
        XCTAssertEqual(regionList?.first?["Name"] as? String, "Alice")
        XCTAssertEqual(((tags["RegionInfo"] as? [String: Any])?["AppliedToDimensions"] as? [String: Any])?["W"] as? Int, 64)
        let windows = (tags["RegionInfoMP"] as? [String: Any])?["Regions"] as? [[String: Any]]
        XCTAssertEqual(windows?.first?["PersonDisplayName"] as? String, "Bob")
    }

    func testWithoutAnEmbeddedPacketTheSidecarIsTheResult() throws {
        let (_, _, sidecar) = try photoAndSidecar()
        XCTAssertEqual(try XMPPacket(data: try XMPSidecar.merged(embedded: nil, sidecar: sidecar)).properties,
                       try XMPPacket(data: sidecar).properties)
    }

    func testAnUnreadableInputIsNamed() throws {
        let good = Data(XMPSidecarSamples.packet("xmp:Rating='2'").utf8)
        XCTAssertThrowsError(try XMPSidecar.merged(embedded: Data("<x:xmpmeta".utf8), sidecar: good)) { error in
            XCTAssertEqual((error as? SidecarError)?.reason, "embedded XMP is not a readable XMP packet: unterminated start tag <x:xmpmeta (at byte 0)")
        }
        XCTAssertThrowsError(try XMPSidecar.merged(embedded: good, sidecar: Data("not xml".utf8))) { error in
            XCTAssertEqual((error as? SidecarError)?.reason, "XMP sidecar is not a readable XMP packet: no rdf:RDF element: not an XMP packet")
        }
    }
}
