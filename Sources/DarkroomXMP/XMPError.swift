/// Why bytes are not a readable XMP packet: the reason, and the byte offset where reading stopped
/// when one is known.
public struct XMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, for a person (`unterminated start tag <rdf:Description`).
    public var reason: String
    /// The byte offset (in the packet as UTF-8) of the construct that could not be read.
    public var offset: Int?

    /// An error with its reason and, when known, where it is.
    public init(reason: String, offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    /// The reason, with the byte offset when known.
    public var description: String { offset.map { "\(reason) (at byte \($0))" } ?? reason }
}
