import DarkroomXMP
import Foundation

/// What a person said about a photo, as XMP records it: rating, keywords, title and description.
public struct PhotoDescription: Sendable, Hashable, Codable {
    /// `xmp:Rating`: 1 to 5 stars, 0 unrated, -1 rejected.
    public var rating: Int?
    /// `dc:subject`, in order, each once.
    public var keywords: [String]
    /// `dc:title` (its default language).
    public var title: String?
    /// `dc:description` (its default language).
    public var caption: String?
    /// Where these were read: `library file`, `original`, `XMP sidecar`, or nil when nowhere.
    public var source: String?

    /// Nothing said.
    public init(rating: Int? = nil, keywords: [String] = [], title: String? = nil, caption: String? = nil, source: String? = nil) {
        self.rating = rating
        self.keywords = keywords
        self.title = title
        self.caption = caption
        self.source = source
    }

    /// What `packet` says (nil fields where it says nothing).
    init(_ packet: XMPPacket, source: String) {
        rating = packet[Self.rating]?.text.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { Int($0.rounded()) }
        var seen = Set<String>()
        keywords = (packet[Self.subject]?.texts ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        title = packet[Self.title]?.text.flatMap(Self.nonEmpty)
        caption = packet[Self.description]?.text.flatMap(Self.nonEmpty)
        self.source = isEmpty ? nil : source
    }

    /// Whether nothing is said.
    public var isEmpty: Bool { rating == nil && keywords.isEmpty && title == nil && caption == nil }

    static let rating = XMPName(XMPNamespace.xmp, "Rating")
    static let subject = XMPName(XMPNamespace.dc, "subject")
    static let title = XMPName(XMPNamespace.dc, "title")
    static let description = XMPName(XMPNamespace.dc, "description")

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
