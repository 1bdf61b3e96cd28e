import DarkroomModel
import Foundation

extension CorrectableCatalog {
    /// The photo a person names on a command line (`catalog set-date`, `export`): a content id or
    /// hash, a library output's path (absolute, or relative to `library`), an imported original's
    /// path, or any file with an imported photo's bytes. Fails with the reason a person needs when
    /// the name picks nothing.
    public func assets(named target: String, library: URL) throws -> Result<[AssetFacts], UnknownTarget> {
        if let id = UUID(uuidString: target) {
            let assets = try assets(.id(id))
            return assets.isEmpty ? .failure(UnknownTarget(reason: "unknown id: no photo in the catalog has it")) : .success(assets)
        }
        if target.count == 64, target.allSatisfy(\.isHexDigit) {
            let assets = try assets(.contentHash(target.lowercased()))
            return assets.isEmpty ? .failure(UnknownTarget(reason: "unknown content hash: no photo in the catalog has it")) : .success(assets)
        }
        let url = URL(fileURLWithPath: target).standardizedFileURL
        let inLibrary = library.standardizedFileURL.path + "/"
        for relative in [url.path.hasPrefix(inLibrary) ? String(url.path.dropFirst(inLibrary.count)) : nil,
                         target.hasPrefix("/") ? nil : target].compactMap({ $0 }) {
            guard let output = try output(at: relative) else { continue }
            if output.subject.hasPrefix("collection:") {
                return .failure(UnknownTarget(reason: "made by the collection step \(output.step.split(separator: "/").last ?? "") from its "
                                              + "photos' dates, not a photo of its own: name those photos (its next run makes it again)"))
            }
            let assets = try assets(.contentHash(output.subject))
            if assets.isEmpty {
                return .failure(UnknownTarget(reason: "a library file no photo in the catalog owns yet (recorded by 'catalog rebuild'): "
                                              + "run the import over the originals first"))
            }
            return .success(assets)
        }
        for path in Set([url.path, url.resolvingSymlinksInPath().path]).sorted() {
            let assets = try assets(.originalPath(path))
            if !assets.isEmpty { return .success(assets) }
        }
        guard FileInfo(path: url.path, followLinks: true)?.isRegularFile == true else {
            return .failure(UnknownTarget(reason: "no such photo in the catalog: not a content id, an imported file or a file of the library"))
        }
        let assets = try assets(.contentHash(try ContentHash.ofFile(url)))
        return assets.isEmpty ? .failure(UnknownTarget(reason: "no photo in the catalog has this file's content (it was never imported)"))
                              : .success(assets)
    }
}

/// Why a name given on a command line picks no photo of the catalog.
public struct UnknownTarget: Error, Sendable, CustomStringConvertible {
    /// For a person: `unknown id: no photo in the catalog has it`.
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}
