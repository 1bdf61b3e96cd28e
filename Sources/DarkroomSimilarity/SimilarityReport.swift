/// The groups `darkroom duplicates` lists, in the JSON shape the CLI prints:
/// `{"groups": [{"kind": "near-duplicate" | "burst", "keep": "<id>", "members": [{"id": ..., "path": ..., "distance": N}]}]}`.
public struct SimilarityReport: Codable, Hashable, Sendable {
    /// Near-duplicate groups and bursts, ordered by the path of the photo kept.
    public var groups: [Group]

    /// A report of `groups`.
    public init(groups: [Group]) {
        self.groups = groups
    }

    /// One group of photos.
    public struct Group: Codable, Hashable, Sendable {
        /// Near-duplicates (copies of one photo) or the frames of one burst.
        public enum Kind: String, Codable, Hashable, Sendable {
            /// Copies of one photo: re-saved, resized, stripped, slightly cropped.
            case nearDuplicate = "near-duplicate"
            /// The frames of one burst.
            case burst
        }

        /// Near-duplicates or a burst.
        public var kind: Kind
        /// The id of the photo to keep: the best copy, or the burst's pick.
        public var keep: String
        /// Every photo of the group, the kept one first (distance 0), then by distance and path.
        public var members: [Member]

        /// A group of `members` (the kept one first).
        public init(kind: Kind, keep: String, members: [Member]) {
            self.kind = kind
            self.keep = keep
            self.members = members
        }
    }

    /// A photo of a group.
    public struct Member: Codable, Hashable, Sendable {
        /// The photo's id in the library.
        public var id: String
        /// The original's path.
        public var path: String
        /// Bits between its fingerprint and the kept photo's (0...63); null in JSON when either
        /// photo has no fingerprint (a featureless frame in a burst).
        public var distance: Int?

        /// A member and its distance to the kept photo.
        public init(id: String, path: String, distance: Int?) {
            self.id = id
            self.path = path
            self.distance = distance
        }

        /// Encodes `distance` always, as a number or null.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(path, forKey: .path)
            try container.encode(distance, forKey: .distance)
        }
    }
}
