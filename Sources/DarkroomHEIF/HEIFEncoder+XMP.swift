internal import CHeif
import Foundation

extension HEIFEncoder {
    /// Attaches an XMP packet (UTF-8 RDF/XML) to the encoded image as its `mime` metadata item of
    /// type `application/rdf+xml`, where exiftool and Apple Photos read it.
    static func addXMP(_ xmp: Data, to context: HEIFContext, image handle: OpaquePointer?) throws {
        try xmp.withUnsafeBytes { raw in
            try HEIFError.check(heif_context_add_XMP_metadata(context.pointer, handle, raw.baseAddress, Int32(raw.count)), "xmp")
        }
    }
}
