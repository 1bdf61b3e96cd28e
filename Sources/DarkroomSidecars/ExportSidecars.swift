import DarkroomCore

/// The sidecars of exports and editors, matched for discovery: Google Takeout's JSON under every
/// naming Takeout has used, and XMP sidecars of both conventions (`SidecarIndex`). Stages that read
/// them (`exif-date`, `heic-encode`) hand this to the runner as their `Stage.sidecars`.
public struct ExportSidecars: SidecarMatcher {
    /// The kind of a Takeout JSON sidecar, as reports name it.
    public static let takeoutKind = "Google Takeout JSON"
    /// The kind of an XMP sidecar, as reports name it.
    public static let xmpKind = "XMP sidecar"

    /// The matcher.
    public init() {}

    /// Every photo of a Takeout export has its JSON: the photos of a run without one are listed.
    public var expectedKinds: Set<String> { [Self.takeoutKind] }

    /// Indexes one folder's names with `SidecarIndex`.
    public func index(folder names: [String]) -> any FolderSidecars {
        Folder(index: SidecarIndex(names: names))
    }

    private struct Folder: FolderSidecars {
        let index: SidecarIndex

        func sidecars(of mediaName: String) -> [SidecarMatch] {
            index.sidecars(of: mediaName).map {
                SidecarMatch(name: $0.name, kind: $0.kind == .xmp ? ExportSidecars.xmpKind : ExportSidecars.takeoutKind, reason: $0.reason)
            }
        }

        func passedOver(_ name: String) -> (reason: String, kind: String)? {
            guard let role = index.role(of: name) else { return nil }
            switch role {
            case .takeout: return (role.reason + ", which this pipeline does not take", "unused Takeout JSON file")
            case .xmp: return (role.reason + ", which this pipeline does not take", ".xmp sidecar")
            case .albumMetadata: return (role.reason, "Takeout album metadata file")
            case .takeoutAccountData: return (role.reason, "Takeout account data file")
            case .unmatchedJSON: return (role.reason, "unmatched .json file")
            case .unmatchedXMP: return (role.reason, "unmatched .xmp sidecar")
            }
        }
    }
}
