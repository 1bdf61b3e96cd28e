import Foundation
import DarkroomLibrary
import DarkroomModel
import DarkroomPhotoMetadata

extension DateCorrector {
    /// Works out what the correction does, reading the catalog and the library but changing nothing
    /// (what `--dry-run` prints). Throws `DateArgumentError` when nothing names the photos, and
    /// `PipelinesNotFound` when a pipeline file that made one of their outputs cannot be read.
    public func plan(_ request: DateCorrectionRequest) throws -> DateCorrectionPlan {
        guard !request.targets.isEmpty || request.camera != nil || request.folder != nil else {
            throw DateArgumentError("name the photos to correct: content ids or paths, --camera or --folder")
        }
        var plan = DateCorrectionPlan()
        for asset in try select(request, failures: &plan.failures) {
            guard let date = request.change.date(for: asset.captureDate) else {
                plan.failures.append(.init(target: asset.originalPath, reason: asset.captureDate == nil
                    ? "it has no capture date to shift; give it one: darkroom catalog set-date \(asset.originalPath) YYYY-MM-DDTHH:MM"
                    : "shifted by \(request.change), its date would leave the years 1 to 9999"))
                continue
            }
            var subjects = [try subject(asset, date: date, stillOf: nil, notes: &plan.notes)]
            for video in try catalog.assets(.motionParts(of: asset.contentHash)) {
                subjects.append(try subject(video, date: date, stillOf: asset.contentHash, notes: &plan.notes))
            }
            plan.photos.append(.init(subjects: subjects))
        }
        if !steps.problems.isEmpty {
            throw PipelinesNotFound(problems: steps.problems.sorted { $0.key < $1.key }.map(\.value))
        }
        return plan
    }

    /// One subject's new date, the outputs that move or have their date rewritten, and the units
    /// recorded again. A Live Photo's video (`stillOf` its still) is keyed by its still's date, so
    /// its units change with it.
    private func subject(_ asset: AssetFacts, date: CaptureDate, stillOf still: String?,
                         notes: inout [DateCorrectionPlan.Problem]) throws -> DateCorrectionPlan.Subject {
        let state = try catalog.state(of: asset.contentHash)
        // What files carry inside: the wall-clock time, its fraction and its offset.
        let dateChanges = asset.captureDate.map { $0.local != date.local || $0.utcOffsetSeconds != date.utcOffsetSeconds } ?? true
        var moves: [DateCorrectionPlan.Move] = []
        for output in state.outputs {
            let rewritesDate = dateChanges && LibraryFileDates.carriesDate(output.path)
            var path = output.path
            if let found = steps.step(output.step, madeOutput: output.path), !found.datedTemplates.isEmpty {
                if let old = asset.captureDate?.local,
                   let redated = found.datedTemplates.lazy.compactMap({ $0.redated(output.path, from: old, to: date.local) }).first {
                    path = redated
                } else {
                    notes.append(.init(target: output.path, reason: "does not fit its step's template at the photo's recorded date; "
                                       + "left where it is (the next run of \(found.runner.pipeline.file) makes it again)"))
                }
            }
            guard path != output.path || rewritesDate else { continue }
            guard state.unitKeys[output.step] != nil else {
                notes.append(.init(target: output.path, reason: "its step has no finished unit in the catalog; left where it is"))
                continue
            }
            moves.append(.init(to: path, rewritesDate: rewritesDate, output: output))
        }
        var units: [UnitCompletion.Unit] = []
        if let still {
            for (step, _) in state.unitKeys.sorted(by: { $0.key < $1.key }) {
                guard let found = steps.step(step, madeOutput: asset.originalPath), found.step.configured.takesMotionParts,
                      let key = try found.runner.motionWork(for: asset.contentHash, still: still, date: date, catalog: nil).0.keys[found.step.index]
                else { continue }
                units.append(.init(step: step, key: key))
            }
            // Only what its motion steps made moves: their units are what the commit records again.
            moves.removeAll { move in !units.contains { $0.step == move.step } }
        } else {
            units = Set(moves.map(\.step)).sorted().map { UnitCompletion.Unit(step: $0, key: state.unitKeys[$0]!) }
        }
        let unitSteps = Set(units.map(\.step)), moved = Set(moves.map(\.from))
        let unchanged = state.outputs.filter { unitSteps.contains($0.step) && !moved.contains($0.path) }
            .map { PublishedOutput(step: $0.step, path: $0.path, size: $0.size, sha256: $0.sha256) }
        var updated = asset
        updated.captureDate = date
        let current = moves.isEmpty && asset.captureDate == date && units.allSatisfy { state.unitKeys[$0.step] == $0.key }
        return .init(asset: updated, previous: asset.captureDate, moves: moves, units: units, unchanged: unchanged, isCurrent: current)
    }

    // MARK: Choosing the photos

    /// The photos the request names (each once; a Live Photo's video stands for its still).
    private func select(_ request: DateCorrectionRequest, failures: inout [DateCorrectionPlan.Problem]) throws -> [AssetFacts] {
        var chosen: [AssetFacts]?
        if !request.targets.isEmpty {
            var named: [AssetFacts] = []
            for target in request.targets {
                switch try catalog.assets(named: target, library: library) {
                case .success(let assets): named += assets
                case .failure(let problem): failures.append(.init(target: target, reason: problem.reason))
                }
            }
            chosen = named
        }
        if let camera = request.camera {
            chosen = try narrow(chosen, to: catalog.assets(.camera(camera)), "--camera \(camera)",
                                unmatched: "no photo in the catalog was taken with this camera", failures: &failures)
        }
        if let folder = request.folder {
            var path = URL(fileURLWithPath: folder).standardizedFileURL.path
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            chosen = try narrow(chosen, to: catalog.assets(.folder(path)), "--folder \(folder)",
                                unmatched: "no photo in the catalog was imported from under this folder", failures: &failures)
        }
        var stills: [AssetFacts] = [], seen = Set<String>()
        for asset in chosen ?? [] {
            let still = try asset.motionOf.flatMap { try catalog.assets(.contentHash($0)).first } ?? asset
            if seen.insert(still.contentHash).inserted { stills.append(still) }
        }
        return stills
    }

    /// `chosen` narrowed to `picked` (or `picked` when nothing was chosen yet); a selector that
    /// picks nothing at all is reported.
    private func narrow(_ chosen: [AssetFacts]?, to picked: [AssetFacts], _ selector: String, unmatched: String,
                        failures: inout [DateCorrectionPlan.Problem]) -> [AssetFacts] {
        if picked.isEmpty { failures.append(.init(target: selector, reason: unmatched)) }
        guard let chosen else { return picked }
        let keep = Set(picked.map(\.contentHash))
        return chosen.filter { keep.contains($0.contentHash) }
    }
}
