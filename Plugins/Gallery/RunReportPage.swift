import DarkroomCore
import DarkroomHTML
import Foundation
import DarkroomModel
import DarkroomReport

/// `darkroom run ... --report run.html`: what a run did, as a page in the gallery's look, standing
/// alone (stylesheet and viewer inlined): the counts, every failure with its path and reason,
/// warnings, duplicates beside their originals, photos dated from a low-confidence source, the files
/// passed over, and a contact sheet of what was imported. Thumbnails are the library's own, linked
/// relative to where the report is written, or by absolute `file://` URL.
public struct RunReportPage {
    /// How the report links to the library's files.
    public enum Links: Sendable {
        /// Relative to the report's folder: the report and the library can move together.
        case relative
        /// Absolute `file://` URLs: the report can move alone.
        case absolute
    }

    let report: RunReport
    let library: URL
    let location: URL
    let links: Links
    let files: LibraryFile

    /// The report of `report`, to be written at `location`, for `library` (the run's).
    public init(report: RunReport, library: URL, location: URL, links: Links = .relative, pixelLimit: Int = 100_000_000) {
        self.report = report
        self.library = library.standardizedFileURL
        self.location = location.standardizedFileURL
        self.links = links
        files = LibraryFile(library: self.library, pixelLimit: pixelLimit)
    }

    /// Writes the page at its location, atomically (a temp file renamed into place: never half a report).
    public func write() throws {
        try Data(html.utf8).write(to: location, options: .atomic)
    }

    /// The page.
    public var html: String {
        let imported = (report.files ?? []).filter { $0.outcome == .processed }
        let uncertain = (report.files ?? []).filter { $0.captureDate?.confidence == .low }
        var sections: [Markup] = [Components.counts([
            ("found", report.found, false), ("processed", report.processed, false), ("already done", report.skipped, false),
            ("duplicates", report.duplicates, false), ("failed", report.failed, true), ("passed over", report.passedOver.count, false),
            ("files written", report.published.count, false),
        ])]
        if let stopped = report.stopped {
            sections.append(.element("p", [.class("note")], [.element("strong", text: "The run stopped: \(stopped); \(report.notAttempted) not tried.")]))
        }
        if !report.failures.isEmpty { sections.append(problems(report.failures, id: "failures", heading: "Failed", classes: "failures")) }
        if !report.warnings.isEmpty { sections.append(problems(report.warnings, id: "warnings", heading: "Warnings", classes: "")) }
        if !report.duplicateFiles.isEmpty { sections.append(duplicates) }
        if !uncertain.isEmpty {
            sections.append(Components.section(id: "uncertain", heading: "Uncertain dates",
                                               note: "Dated from a low-confidence source (the file's modification time): check them.",
                                               [PhotoGrid.markup(uncertain.compactMap(tile))]))
        }
        if !report.passedOver.isEmpty { sections.append(passedOver) }
        sections.append(Components.section(id: "imported", heading: "Imported", note: imported.isEmpty ? "Nothing new was imported." : nil,
                                           imported.isEmpty ? [] : [PhotoGrid.markup(imported.compactMap(tile))]))
        let name = ((report.pipeline as NSString).lastPathComponent as NSString).deletingPathExtension
        let subtitle = "\(report.shard.map { "Shard \($0), " } ?? "")into \(report.library), " + String(format: "%.1f s", report.seconds)
        let body = Markup.joined([Components.header(title: "Run of \(name)", subtitle: subtitle), .element("main", [], sections)])
        return Page(title: "Run of \(name)", body: body, assets: .inline).html
    }

    // MARK: Sections

    private func problems(_ list: [RunReport.Failure], id: String, heading: String, classes: String) -> Markup {
        Components.section(id: id, heading: "\(heading) (\(list.count))", [Components.table(
            headers: ["file", "step", "reason"],
            rows: list.sorted { $0.path < $1.path }.map { [.text($0.path), .text($0.step), .element("span", [.class("reason")], text: $0.reason)] },
            classes: classes)])
    }

    private var duplicates: Markup {
        let byPath = Dictionary((report.files ?? []).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let pairs = report.duplicateFiles.sorted { $0.path < $1.path }.map { duplicate -> Markup in
            let thumbnail = byPath[duplicate.sameAs].flatMap(thumbnail)
            return .element("div", [.class("pair")], [
                figure(thumbnail, caption: "\(duplicate.path)", alt: "Duplicate"),
                figure(thumbnail, caption: "is the same photo as \(duplicate.sameAs)", alt: "Original"),
            ])
        }
        return Components.section(id: "duplicates", heading: "Duplicates (\(report.duplicateFiles.count))",
                                  note: "Byte for byte the same as a file imported in this run, so not imported again.", pairs)
    }

    private var passedOver: Markup {
        Components.section(id: "passed-over", heading: "Passed over (\(report.passedOver.count))", [Components.table(
            headers: ["file", "what it is"],
            rows: report.passedOver.sorted { $0.path < $1.path }.map { [.text($0.path), .text($0.reason)] })])
    }

    private func figure(_ image: LibraryImage?, caption: String, alt: String) -> Markup {
        let picture = image.map { image in
            Markup.void("img", [Attribute("src", link(library: image.path)), Attribute("width", image.width), Attribute("height", image.height),
                                Attribute("alt", alt), Attribute("loading", "lazy")])
        } ?? .element("span", [.class("note")], text: "(no thumbnail)")
        return .element("figure", [], [picture, .element("figcaption", text: caption)])
    }

    // MARK: Tiles

    /// A file's tile: its thumbnail; the larger view shows the original when a browser can, else the thumbnail.
    private func tile(_ file: RunReport.File) -> PhotoTile? {
        guard let thumbnail = thumbnail(file) else { return nil }
        let original = ["jpg", "jpeg", "png", "webp", "gif"].contains((file.path as NSString).pathExtension.lowercased())
        let large = original ? link(absolute: file.path) : link(library: file.outputs.first { $0.hasPrefix("gallery/large/") } ?? thumbnail.path)
        let entry = GalleryEntry(id: file.id, kind: MediaKind(fileName: file.path), date: file.captureDate, thumbnail: thumbnail)
        let video = file.outputs.filter(LibraryFile.isVideo).sorted(by: LibraryFile.playableOrder).first
        let media: PhotoTile.Media = entry.kind == .video && video != nil
            ? .video(source: link(library: video!), poster: link(library: thumbnail.path), duration: nil) : .photo(large: large)
        return PhotoTile(id: "p-" + file.id, thumbnail: link(library: thumbnail.path), width: thumbnail.width, height: thumbnail.height,
                         alt: CaptionText.alt(entry), media: media,
                         title: file.captureDate.map { CaptionText.dateTime($0.local) } ?? "Date unknown",
                         details: file.path, dateSource: CaptionText.dateSource(file.captureDate), uncertainDate: entry.uncertainDate)
    }

    /// The file's thumbnail in the library: a browser-readable image under `Thumbnails/`, else any.
    private func thumbnail(_ file: RunReport.File) -> LibraryImage? {
        let images = file.outputs.filter { ["jpg", "jpeg", "png", "webp"].contains(($0 as NSString).pathExtension.lowercased()) }
        let ordered = images.filter { $0.hasPrefix("Thumbnails/") } + images.filter { !$0.hasPrefix("Thumbnails/") }
        return ordered.lazy.compactMap { try? files.image($0) }.first
    }

    // MARK: Links

    /// The URL of a library file from the report.
    private func link(library path: String) -> String { link(absolute: library.appendingPathComponent(path).path) }

    /// The URL of any file from the report: relative to the report's folder, or `file://`.
    private func link(absolute path: String) -> String {
        switch links {
        case .relative: return URLPath.relative(fromFolder: location.deletingLastPathComponent().path, to: path)
        case .absolute: return URLPath.fileURL(path)
        }
    }
}

/// The run report page as the command line writes it: links relative to the page.
public struct RunReportPageRenderer: RunReportRenderer {
    public init() {}

    public func write(_ report: RunReport, library: URL, to location: URL, pixelLimit: Int) throws {
        try RunReportPage(report: report, library: library, location: location, pixelLimit: pixelLimit).write()
    }
}
