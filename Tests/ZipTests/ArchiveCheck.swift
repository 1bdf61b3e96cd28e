import DarkroomTestSupport
import Foundation
import XCTest

/// Reads an archive back with tools that are not Darkroom's: Python's `zipfile` and Info-ZIP's
/// `unzip -t`, against the source bytes of every entry.
enum ArchiveCheck {
    /// What Python's `zipfile` found in an archive.
    struct Report: Decodable {
        /// Entry names in central directory order.
        var names: [String]
        /// Compression method of each entry (0 stored, 8 deflated).
        var methods: [Int]
        /// `date_time` of each entry: year, month, day, hour, minute, second.
        var dateTimes: [[Int]]
        /// Whether a ZIP64 end-of-central-directory record and locator are present.
        var zip64End: Bool
        /// How many central directory headers carry a ZIP64 extra field.
        var zip64Extras: Int
        /// Whether every entry has the UTF-8 flag (bit 11).
        var utf8Flags: Bool
    }

    /// Fails unless Python reads `archive` with `testzip()` clean and finds exactly `expected`
    /// (entry name to the file holding its bytes, in order) with the right sizes, CRC-32s and
    /// bytes; and unless `unzip -t` reports no errors. Returns what Python saw.
    static func verify(_ archive: URL, expected: [(name: String, source: URL)],
                       file: StaticString = #filePath, line: UInt = #line) throws -> Report {
        try Prerequisite.require(tool: "python3")
        try Prerequisite.require(tool: "unzip")
        let manifest = try JSONSerialization.data(withJSONObject: expected.map { ["name": $0.name, "path": $0.source.path] })
        let manifestURL = archive.deletingLastPathComponent().appendingPathComponent("expected-\(UUID().uuidString).json")
        try manifest.write(to: manifestURL)
        defer { try? FileManager.default.removeItem(at: manifestURL) }
        let output = try Fixtures.run("python3", ["-c", script, archive.path, manifestURL.path])
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        let unzip = try Fixtures.run("unzip", ["-t", archive.path])
        XCTAssertTrue(unzip.contains("No errors detected"), unzip, file: file, line: line)
        return report
    }

    /// The Python side: asserts, then prints the report as JSON.
    private static let script = #"""
import json, os, struct, sys, zipfile, zlib
archive, manifest = sys.argv[1], json.load(open(sys.argv[2]))
with zipfile.ZipFile(archive) as z:
    bad = z.testzip()
    assert bad is None, f"testzip: first bad entry {bad}"
    infos = z.infolist()
    names = [i.filename for i in infos]
    assert names == [e["name"] for e in manifest], f"names {names}"
    for info, entry in zip(infos, manifest):
        data = open(entry["path"], "rb").read()
        assert info.file_size == len(data), f"{info.filename}: size {info.file_size} != {len(data)}"
        assert info.CRC == zlib.crc32(data), f"{info.filename}: CRC {info.CRC:08x} != {zlib.crc32(data):08x}"
        assert z.read(info) == data, f"{info.filename}: bytes differ"
    raw = open(archive, "rb").read()
    end = raw.rfind(b"PK\x05\x06")
    zip64_end = end >= 20 and raw[end - 20:end - 16] == b"PK\x06\x07"
    if zip64_end:
        (record,) = struct.unpack("<Q", raw[end - 12:end - 4])
        assert raw[record:record + 4] == b"PK\x06\x06", "the locator does not point at a ZIP64 end record"
    extras = 0
    for info in infos:
        extra = info.extra
        while len(extra) >= 4:
            tag, size = struct.unpack("<HH", extra[:4])
            extras += tag == 1
            extra = extra[4 + size:]
    print(json.dumps({"names": names, "methods": [i.compress_type for i in infos],
                      "dateTimes": [list(i.date_time) for i in infos], "zip64End": zip64_end,
                      "zip64Extras": extras, "utf8Flags": all(i.flag_bits & 0x800 for i in infos)}))
"""#
}
