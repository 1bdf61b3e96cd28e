internal import CCairo
import Foundation

/// A PDF file written page by page through cairo. Owns its PDF surface and drawing context and
/// destroys them in `deinit`.
///
///     let document = try PDFDocument(path: temp, pageSize: .millimetres(width: 210, height: 297), title: "2024")
///     try document.addPage { page in
///         page.draw(try PDFImage(jpeg: bytes, rgb: pixels, width: w, height: h), in: rect)   // the JPEG as is
///         page.draw("3 March 2024", style: caption, in: below)                               // Pango, font subset embedded
///     }                                               // shown: written out, its images released
///     try document.finish()
///
/// Each page goes to the file when it is shown, with its images; nothing of it stays in memory,
/// so a long document costs the memory of its largest page.
public final class PDFDocument {
    /// The file being written.
    public let path: String
    /// Every page's size.
    public let pageSize: PDFSize
    /// How many pages have been shown.
    public private(set) var pageCount = 0

    let surface: OpaquePointer
    let context: OpaquePointer
    private var finished = false

    /// Starts a PDF at `path` (created or truncated) whose pages are `pageSize`; `title` and
    /// `creator` go into the document information.
    public init(path: String, pageSize: PDFSize, title: String? = nil, creator: String = "Darkroom") throws {
        guard pageSize.width >= 1, pageSize.height >= 1, pageSize.width <= 14_400, pageSize.height <= 14_400 else {
            throw CairoError(path: path, operation: "create PDF",
                             reason: "page size \(pageSize.width) x \(pageSize.height) pt is outside 1...14400 pt")
        }
        guard let surface = cairo_pdf_surface_create(path, pageSize.width, pageSize.height) else {
            throw CairoError(path: path, operation: "create PDF", reason: "cairo returned no surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw CairoError(path: path, operation: "create PDF", status: status)
        }
        guard let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw CairoError(path: path, operation: "create PDF", reason: "cairo returned no context")
        }
        self.surface = surface
        self.context = context
        self.path = path
        self.pageSize = pageSize
        if let title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Draws one page with `draw`, then shows it: the page and its images are written to the
    /// file, and the images may be released. A page whose drawing throws is not completed; the
    /// document should then be abandoned.
    public func addPage(_ draw: (PDFPage) throws -> Void) throws {
        guard !finished else { throw CairoError(path: path, operation: "add page", reason: "the document is finished") }
        cairo_save(context)
        try draw(PDFPage(document: self))
        cairo_restore(context)
        try check("draw page \(pageCount + 1)")
        cairo_show_page(context)
        try check("write page \(pageCount + 1)")
        pageCount += 1
    }

    /// Writes the rest of the document (fonts, cross-reference table) and closes the file.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(path: path, operation: "finish PDF", status: status) }
    }

    /// Throws the context's error, if it has one (a failed write, a bad font, no memory).
    func check(_ operation: String) throws {
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(path: path, operation: operation, status: status) }
    }
}
