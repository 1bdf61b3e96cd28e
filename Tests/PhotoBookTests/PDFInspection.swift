import DarkroomTestSupport
import Foundation
import XCTest

/// What poppler's tools (`pdfinfo`, `pdffonts`, `pdfimages`, `pdftoppm`, `pdftotext`) say about a
/// PDF: the second reader every photo-book test checks the stage's output with.
struct PDFInspection {
    let url: URL

    /// Throws a skip (a failure under CI) when poppler-utils is not installed.
    static func requireTools() throws {
        for tool in ["pdfinfo", "pdffonts", "pdfimages", "pdftoppm", "pdftotext"]
        where !FileManager.default.isExecutableFile(atPath: "/usr/bin/\(tool)") {
            throw Prerequisite.missing("\(tool) not installed (poppler-utils; scripts/setup.sh --tests installs it)")
        }
    }

    /// `pdfinfo`'s fields (`Pages`, `Page size`, `Title`...).
    func info() throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try Fixtures.run("pdfinfo", [url.path]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The number of pages.
    func pageCount() throws -> Int { Int(try info()["Pages"] ?? "") ?? -1 }

    /// The page size in points, rounded to 0.1 pt (`pdfinfo`: `595.276 x 841.89 pts (A4)`).
    func pageSize() throws -> (width: Double, height: Double) {
        let words = (try info()["Page size"] ?? "").split(separator: " ")
        guard words.count >= 3, let width = Double(words[0]), let height = Double(words[2]) else { return (-1, -1) }
        return ((width * 10).rounded() / 10, (height * 10).rounded() / 10)
    }

    /// One row of `pdffonts`.
    struct Font {
        var name: String
        var type: String
        var embedded: Bool
        var subset: Bool
    }

    /// Every font the PDF uses. Columns are cut where `pdffonts`' dashed rule says (a type has spaces).
    func fonts() throws -> [Font] {
        let lines = try Fixtures.run("pdffonts", [url.path]).split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { return [] }
        let columns = Self.columns(ofRule: lines[1])
        return lines.dropFirst(2).map { line in
            let cells = columns.map { range in Self.cut(line, range) }
            return Font(name: cells[0], type: cells[1], embedded: cells[3] == "yes", subset: cells[4] == "yes")
        }
    }

    /// One row of `pdfimages -list`.
    struct ImageEntry {
        var page: Int
        var width: Int
        var height: Int
        var colour: String
        var encoding: String
        var xPPI: Int
        var yPPI: Int
    }

    /// Every image placement, in page order.
    func images() throws -> [ImageEntry] {
        try Fixtures.run("pdfimages", ["-list", url.path]).split(separator: "\n").dropFirst(2).map { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return ImageEntry(page: Int(f[0]) ?? -1, width: Int(f[3]) ?? -1, height: Int(f[4]) ?? -1, colour: f[5], encoding: f[8],
                              xPPI: Int(f[12]) ?? -1, yPPI: Int(f[13]) ?? -1)
        }
    }

    /// The text of `page` (all pages when nil), as `pdftotext` extracts it.
    func text(page: Int? = nil) throws -> String {
        let range = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
        return try Fixtures.run("pdftotext", range + ["-layout", url.path, "-"])
    }

    /// `page` rendered to a PNG at `dpi` (72: one pixel a point) by poppler.
    func render(page: Int, dpi: Int = 72, to folder: URL) throws -> URL {
        let base = folder.appendingPathComponent("page-\(page)-\(UUID().uuidString.prefix(6))")
        try Fixtures.run("pdftoppm", ["-f", "\(page)", "-l", "\(page)", "-r", "\(dpi)", "-singlefile", "-png", url.path, base.path])
        return base.appendingPathExtension("png")
    }

    /// The character ranges of the dash groups in a rule such as `----- ---- ---`.
    static func columns(ofRule rule: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, character) in rule.enumerated() {
            if character == "-", start == nil { start = index }
            if character != "-", let s = start { ranges.append(s..<index); start = nil }
        }
        if let s = start { ranges.append(s..<rule.count) }
        return ranges
    }

    static func cut(_ line: String, _ range: Range<Int>) -> String {
        let characters = Array(line)
        guard range.lowerBound < characters.count else { return "" }
        return String(characters[range.lowerBound..<min(range.upperBound, characters.count)]).trimmingCharacters(in: .whitespaces)
    }
}
