import Foundation
import Logging
import Synchronization
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

extension Runner {
    // MARK: Planning one photo

    package struct Work {
        /// Unit key of every per-item step, by step index.
        package var keys: [Int: String]
        /// Steps that must run, in order (pending ones and those they read from).
        package var required: [Int]
        /// Steps whose unit is not done.
        package var pending: Set<Int>
    }

    /// The work for the file with content `hash`, of media `kind`: steps that do not take the kind
    /// pass it by (no key, never pending). The key of a step that reads sidecars includes theirs
    /// (and so do the keys of the steps after it that read from it): a sidecar edited since makes
    /// them run again. A photo without sidecars keeps the keys it had before sidecars were read.
    func work(for hash: String, kind: MediaKind, catalog: CatalogStore?, sidecars: [AttachedSidecar] = []) throws -> Work {
        let state = try catalog?.state(of: hash) ?? SubjectState()
        let sidecarDigest = AttachedSidecar.digest(sidecars)
        var keys: [Int: String] = [:]
        var pending = Set<Int>()
        // What a step's key is the digest of, `<key prefix><hash>|<upstream keys, comma-separated>`,
        // written into one buffer for every step (not made of strings joined and concatenated).
        var keyText: [UInt8] = []
        keyText.reserveCapacity(256)
        for step in unitSteps where step.media.contains(kind) {
            keyText.removeAll(keepingCapacity: true)
            keyText += step.keyPrefix
            keyText += hash.utf8
            keyText.append(UInt8(ascii: "|"))
            for (position, dependency) in step.dependencies.enumerated() {
                if position > 0 { keyText.append(UInt8(ascii: ",")) }
                if let upstream = keys[dependency] { keyText += upstream.utf8 }
            }
            var key = keyText.withUnsafeBytes { ContentHash.of(bytes: $0) }
            if step.readsSidecars && !sidecarDigest.isEmpty { key = ContentHash.of("\(key)|sidecars:\(sidecarDigest)") }
            keys[step.index] = key
            let outputsPresent = state.outputs.allSatisfy { $0.step != step.catalogID || LibraryFiles.holdsFile($0.path, libraryPath: libraryPath) }
            if settings.force || state.unitKeys[step.catalogID] != key || !outputsPresent { pending.insert(step.index) }
        }
        var required = pending
        var frontier = Array(pending)
        while let next = frontier.popLast() {
            for dependency in dependencies[next] where required.insert(dependency).inserted { frontier.append(dependency) }
        }
        return Work(keys: keys, required: required.sorted(), pending: pending)
    }

    /// The work for a photo whose outputs a catalog rebuild found: only the steps that learn facts
    /// about it (its capture date) run again; everything it produced is already in the library.
    func adopting(_ work: Work) -> Work {
        Work(keys: work.keys, required: learningSteps.filter { work.keys[$0] != nil }, pending: work.pending)
    }

    /// The work for a Live Photo's video published as the motion part of the still `still`: only
    /// the steps that take motion parts, keyed by the still and its capture date too (a new date
    /// moves the file). Also the steps of this pipeline whose units or outputs the video has from
    /// when it was imported on its own (its own copy and thumbnail), which it no longer has.
    package func motionWork(for hash: String, still: String, date: CaptureDate, catalog: CatalogStore?) throws -> (Work, retired: [String]) {
        let state = try catalog?.state(of: hash) ?? SubjectState()
        var keys: [Int: String] = [:]
        var pending = Set<Int>()
        for step in pipeline.motionSteps {
            let id = catalogIDs[step.index]
            let key = ContentHash.of("\(id)|\(step.configured.optionsDigest)|\(hash)|motion part of \(still) at \(date.local)")
            keys[step.index] = key
            let outputsPresent = state.outputs.filter { $0.step == id }.allSatisfy {
                LibraryFiles.holdsFile($0.path, library: settings.library)
            }
            if settings.force || state.unitKeys[id] != key || !outputsPresent { pending.insert(step.index) }
        }
        let motionIDs = Set(pipeline.motionSteps.map { catalogIDs[$0.index] })
        let ownSteps = Set(catalogIDs).subtracting(motionIDs)
        let retired = Set(state.unitKeys.keys).union(state.outputs.map(\.step)).intersection(ownSteps).sorted()
        if !retired.isEmpty { pending.formUnion(keys.keys) }
        return (Work(keys: keys, required: pending.sorted(), pending: pending), retired)
    }

    /// The library file `catalog rebuild` recorded that is the Live Photo video `hash`'s own copy (its
    /// bytes, named with its still's id), as the output of the motion step that makes it; nil when
    /// there is none. The rebuild files it under the still, which adopts it with its other files.
    func rebuiltCopy(of hash: String, still: String, catalog: CatalogStore) throws -> PublishedOutput? {
        guard let step = pipeline.motionSteps.first(where: { !$0.configured.outputTemplates.isEmpty }) else { return nil }
        let stillID = CatalogVerification.rebuiltSubject(of: still)
        for subject in [still, stillID] {
            guard let copy = try catalog.state(of: subject).outputs.first(where: {
                $0.step == CatalogVerification.rebuiltStep && $0.sha256 == hash
            }), LibraryFiles.holdsFile(copy.path, library: settings.library) else { continue }
            return PublishedOutput(step: catalogIDs[step.index], path: copy.path, size: copy.size, sha256: copy.sha256)
        }
        return nil
    }

    /// Videos imported on their own by an earlier run that carry the Live Photo identifier of a still
    /// processed now: each becomes the still's motion part, read again from where it was imported
    /// (when it is still there, unchanged). One that is gone stays a separate video, with a warning.
    func earlierMotionParts(of records: [ItemRecord], besides entries: [SurveyEntry], catalog: CatalogStore,
                            failures: FailureSink) -> [SurveyEntry] {
        guard pipeline.prober != nil else { return [] }
        let present = Set(entries.compactMap { entry -> String? in
            switch entry.state {
            case .unique(let hash, _), .duplicate(_, let hash), .motionPart(_, let hash, _): return hash
            case .unreadable: return nil
            }
        })
        var joined: [SurveyEntry] = []
        for record in records {
            guard let key = record.contentIdentifier,
                  let videos = try? catalog.assets(withContentIdentifier: key) else { continue }
            for video in videos where video.mediaKind == .video && video.motionOf == nil && !present.contains(video.contentHash) {
                let url = URL(fileURLWithPath: video.originalPath)
                guard let info = FileInfo(path: url.path), info.isRegularFile,
                      (try? catalog.cachedHash(path: url.path, size: info.size, mtimeNanoseconds: info.modificationNanoseconds,
                                               inode: info.id.inode)) ?? (try? ContentHash.ofFile(url)) == video.contentHash else {
                    failures.warn(path: record.sourcePath, step: "pair", reason: "its Live Photo video was imported earlier from "
                                  + "\(video.originalPath), which is gone or has changed: it stays a separate video")
                    continue
                }
                let found = Discovery.Found(url: url, relativePath: url.lastPathComponent, size: info.size,
                                            modificationDate: info.modificationDate,
                                            modificationNanoseconds: info.modificationNanoseconds, inode: info.id.inode)
                joined.append(SurveyEntry(found: found, state: .motionPart(of: record.contentHash, hash: video.contentHash,
                                                                           stillPath: record.sourcePath)))
            }
        }
        return joined
    }
}
