/// Why the time-zone map could not be loaded; each case names the file (or the places searched).
public enum TimeZoneDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No map file in any of the places Darkroom looks (the paths, in the order tried).
    case notFound(searched: [String])
    /// The file exists (or was named) but could not be read.
    case unreadable(path: String, reason: String)
    /// The file was read but is not a map this version of Darkroom understands, or is damaged.
    case malformed(path: String, reason: String)

    /// The message for a person: the path and the reason.
    public var description: String {
        switch self {
        case .notFound(let searched):
            return "time-zone map (\(TimeZoneDataLocation.fileName)) not found; looked in: "
                + searched.joined(separator: ", ")
        case .unreadable(let path, let reason):
            return "\(path): cannot read the time-zone map: \(reason)"
        case .malformed(let path, let reason):
            return "\(path): not a usable time-zone map: \(reason)"
        }
    }
}
