import Foundation

/// The time stamps catalogs and manifests write: ISO 8601 in UTC (`2026-11-25T09:30:00Z`).
public enum Timestamp {
    /// Now, as ISO 8601.
    public static func now() -> String { ISO8601DateFormatter().string(from: Date()) }
}
