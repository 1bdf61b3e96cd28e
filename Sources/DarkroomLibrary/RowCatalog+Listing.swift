import Foundation
import DarkroomModel

/// What listings of the catalog return, and in what order: every order is by UTF-8 bytes, the same
/// whatever collation a database was made with. Each listing is one read transaction of a query
/// or two, however many subjects it asks about.
extension RowCatalog {
    // MARK: One subject, one path

    /// The done units and published outputs (by path) of one subject.
    public func state(of subject: String) throws -> SubjectState {
        try states(of: [subject], ofSteps: nil)[subject] ?? SubjectState()
    }

    /// The done units and outputs (by path) of these subjects (of the steps `ofSteps` alone, or of
    /// all), in one read of a query each (of a slice of them each, for many: `CatalogRows.read(slicing:)`).
    public func states(of subjects: [String], ofSteps steps: [String]?) throws -> [String: SubjectState] {
        guard !subjects.isEmpty else { return [:] }
        var units: [UnitRow] = [], outputs: [OutputRow] = []
        for (someUnits, someOutputs) in try rows.read(slicing: subjects, { rows, subjects in
            [(try rows.units(ofSubjects: subjects, steps: steps),
              try rows.outputs(steps.map { .subjectsOfSteps(subjects, steps: $0) } ?? .subjects(subjects)))]
        }) {
            units += someUnits
            outputs += someOutputs
        }
        // Gathered into each subject's state in place, the outputs' rows let go of before the units are
        // gathered: a read ahead of 100,000 photos held its rows, their groups and the groups sorted at once.
        var states: [String: SubjectState] = [:]
        states.reserveCapacity(subjects.count)
        for output in outputs { states[output.subject, default: SubjectState()].outputs.append(output.described(source: nil)) }
        outputs = []
        for index in states.indices { states.values[index].outputs.sort(by: Self.byPath) }
        for unit in units { states[unit.subject, default: SubjectState()].unitKeys[unit.step] = unit.key }
        return states
    }

    /// The catalogued output at a library-relative path, with the original file of the photo it was
    /// made from (nil for collections, and for files a rebuild found).
    public func output(at path: String) throws -> CatalogOutput? {
        try outputs(atPaths: [path]).first
    }

    /// The catalogued outputs at these library-relative paths, each with the original file of the
    /// photo it was made from, in one read of two queries.
    public func outputs(atPaths paths: [String]) throws -> [CatalogOutput] {
        guard !paths.isEmpty else { return [] }
        return try rows.read(slicing: paths) { rows, paths -> [CatalogOutput] in
            let outputs = try rows.outputs(.paths(paths))
            guard !outputs.isEmpty else { return [] }
            let sources = try rows.originalPaths(contentHashes: Array(Set(outputs.map(\.subject))))
            return outputs.map { $0.described(source: sources[$0.subject]) }
        }
    }

    /// The capture date and size remembered for a photo.
    public func rememberedFacts(contentHash: String) throws -> RememberedFacts? {
        try rememberedFacts(contentHashes: [contentHash])[contentHash]
    }

    /// The capture dates and sizes remembered for these photos and videos, in one lookup.
    public func rememberedFacts(contentHashes: [String]) throws -> [String: RememberedFacts] {
        try assetRows(contentHashes) { $0.remembered }
    }

    /// What pairing needs of these photos and videos, in one lookup of three columns (a slice at a
    /// time for many): no capture date is read from its JSON.
    public func pairingFacts(contentHashes: [String]) throws -> [String: PairingFacts] {
        guard !contentHashes.isEmpty else { return [:] }
        let read = try rows.read(slicing: contentHashes) { try $0.pairingFacts(contentHashes: $1) }
        return Dictionary(read, uniquingKeysWith: { first, _ in first })
    }

    /// The facts and remembered facts of these photos and videos, in one lookup.
    public func storedAssets(contentHashes: [String]) throws -> [String: StoredAsset] {
        try assetRows(contentHashes) { $0.stored }
    }

    /// The rows of these assets, each made into a value by content hash, in one lookup; each capture
    /// date is read from its JSON on every core (2.5 s on one for 100,000 photos).
    private func assetRows<Value: Sendable>(_ contentHashes: [String], as value: @escaping @Sendable (AssetRow) -> Value) throws -> [String: Value] {
        guard !contentHashes.isEmpty else { return [:] }
        let assets = try rows.read(slicing: contentHashes) { try $0.assets(.contentHashes($1)) }
        let values = DarkroomThreads.map(count: assets.count, jobs: ProcessInfo.processInfo.activeProcessorCount) { value(assets[$0]) }
        return Dictionary(zip(assets.map(\.contentHash), values), uniquingKeysWith: { first, _ in first })
    }

    /// The subjects of the files `catalog rebuild` recorded and no photo has adopted yet.
    public func rebuiltSubjects() throws -> Set<String> {
        Set(try rows.read { try $0.outputs(.subjectPrefix(CatalogVerification.rebuiltSubjectPrefix)) }.map(\.subject))
    }

    /// The photos and videos that carry Apple's Live Photo identifier `identifier`, by content hash.
    public func assets(withContentIdentifier identifier: String) throws -> [PairedAsset] {
        try rows.read { try $0.assets(.contentIdentifiers([identifier])) }
            .sorted { $0.contentHash.utf8.lexicographicallyPrecedes($1.contentHash.utf8) }
            .map { PairedAsset(contentHash: $0.contentHash, originalPath: $0.originalPath, motionOf: $0.motionOf) }
    }

    /// Every published file, by path (for `catalog verify`).
    public func allOutputs() throws -> [CatalogOutput] {
        Self.listed(try rows.read { try $0.outputs(.all) })
    }

    // MARK: What a collection reads (LibraryCatalog)

    /// The assets with these content hashes that the catalog knows, by content hash.
    public func assets(contentHashes: [String]) throws -> [AssetFacts] {
        guard !contentHashes.isEmpty else { return [] }
        return Self.listed(try rows.read(slicing: contentHashes) { try $0.assets(.contentHashes($1)) })
    }

    /// The outputs of these subjects, by path.
    public func outputs(ofSubjects subjects: [String]) throws -> [CatalogOutput] {
        guard !subjects.isEmpty else { return [] }
        return Self.listed(try rows.read(slicing: subjects) { try $0.outputs(.subjects($1)) })
    }

    /// The videos joined to these stills as their motion parts, by content hash.
    public func motionParts(ofStills stills: [String]) throws -> [AssetFacts] {
        guard !stills.isEmpty else { return [] }
        return Self.listed(try rows.read { try $0.assets(.motionOf(stills)) })
    }

    /// The outputs of every collection step (subjects `collection:<step>`), by path.
    public func collectionOutputs() throws -> [CatalogOutput] {
        Self.listed(try rows.read { try $0.outputs(.subjectPrefix("collection:")) })
    }

    // MARK: Finding photos to correct (CorrectableCatalog)

    /// Every photo or video the selector picks, by original path (then content hash):
    /// - `folder` picks the files below the folder, not those of a folder whose name begins the same;
    /// - `camera` matches the recorded `Make Model` whatever its letters' case (Unicode's, not only ASCII's).
    public func assets(_ selector: AssetSelector) throws -> [AssetFacts] {
        let found: [AssetRow] = try rows.read { rows in
            switch selector {
            case .contentHash(let hash): return try rows.assets(.contentHashes([hash]))
            case .id(let id): return try rows.assets(.ids([id.uuidString.lowercased()]))
            case .originalPath(let path): return try rows.assets(.originalPaths([path]))
            case .folder(let folder): return try rows.assets(.originalPathPrefix(folder + "/"))
            case .camera(let camera):
                let wanted = camera.lowercased()
                let names = try rows.cameras().filter { $0.lowercased() == wanted }
                return names.isEmpty ? [] : try rows.assets(.cameras(names))
            case .motionParts(let still): return try rows.assets(.motionOf([still]))
            }
        }
        return found.sorted { a, b in
            a.originalPath == b.originalPath ? a.contentHash.utf8.lexicographicallyPrecedes(b.contentHash.utf8)
                : a.originalPath.utf8.lexicographicallyPrecedes(b.originalPath.utf8)
        }.map(\.facts)
    }

    // MARK: Rows as listed

    /// Outputs as `CatalogOutput`s, by path.
    static func listed(_ outputs: [OutputRow]) -> [CatalogOutput] {
        outputs.map { $0.described(source: nil) }.sorted(by: byPath)
    }

    /// The order of outputs in a list: by path, byte by byte.
    static func byPath(_ a: CatalogOutput, _ b: CatalogOutput) -> Bool {
        a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
    }

    /// Assets as facts, by content hash.
    static func listed(_ assets: [AssetRow]) -> [AssetFacts] {
        assets.sorted { $0.contentHash.utf8.lexicographicallyPrecedes($1.contentHash.utf8) }.map(\.facts)
    }
}

extension OutputRow {
    /// The output as the catalog describes it, with the original file it was made from when known.
    func described(source: String?) -> CatalogOutput {
        CatalogOutput(path: path, step: step, subject: subject, size: size, sha256: sha256, sourcePath: source)
    }
}
