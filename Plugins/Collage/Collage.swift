import DarkroomAlignment
import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel
import DarkroomOptions

/// `collage`: photos laid out on one image from a template (polaroid, grid, film-strip,
/// then-and-now, or a user's template file), at a social size, one collage at a time.
///
///     date-ordered photos ──▶ groups (day/week/month) ──▶ collages of N photos ──▶ render ──▶ publish
///                                                          (then-and-now: a pair)
///
/// A photo that does not decode is reported and left out; its collage is made from the rest. A
/// group that cannot be made at all is reported on its own; the other groups' collages are kept.
public struct Collage: CollectionStage, ShowsBursts {
    /// Starts libvips, FFmpeg and libheif (and OpenCV, for a then-and-now's `align`) for the run, before any worker thread.
    public static func prepare(_ settings: RunSettings) throws {
        try ImagingSetup.configure(for: settings)
        // A pair is aligned on the step's one thread: OpenCV gets no threads of its own.
        AlignmentRuntime.start(threads: 1)
    }

    public static let name = "collage"
    public static let summary = "Collages from templates (polaroid, grid, film-strip, then-and-now or a YAML file) at social sizes, grouped by day, week or month."

    public let options: Options

    public init(options: Options) {
        self.options = options
    }

    /// How the pipeline file says to show bursts.
    public var bursts: BurstChoice { options.bursts }

    public func run(_ all: [ItemRecord], context: CollectionContext) throws {
        let items = context.photosShown(all, bursts: options.bursts)
        let (groups, undated) = PhotoGroups.split(items, by: options.groupBy)
        for item in undated {
            context.reportSkipped(item, reason: "no capture date, so it cannot be grouped by \(options.groupBy.rawValue)", kind: .noCaptureDate)
        }
        guard !groups.isEmpty else { throw StageError("no photos to make a collage from") }

        let renderer = options.renderer(pixelLimit: context.settings.pixelLimit)
        var names = Set<String>()
        for group in groups where context.makes(group.key) {
            let made = context.group(group.key, items: group.photos)
            if made.isCurrent {
                // Made before from these photos with these options: left as it is.
                names.formUnion(made.outputs)
                continue
            }
            make(group, as: made, renderer: renderer, names: &names, context: context)
        }
    }

    /// Makes the collages of one group; a photo that does not decode is left out and its collage made
    /// from the rest, a collage that cannot be made is reported against the group.
    private func make(_ group: PhotoGroup, as made: CollectionGroup, renderer: CollageRenderer, names: inout Set<String>,
                      context: CollectionContext) {
        let template = options.template.template
        var excluded = Set<UUID>()
        var number = 0
        var chunks = template.pick == .pair ? [group.photos] : chunk(group.photos)
        while !chunks.isEmpty {
            let candidates = chunks.removeFirst().filter { !excluded.contains($0.id) }
            var photos = candidates
            if template.pick == .pair {
                switch options.pairing.pick(from: candidates) {
                case .success(let pair): photos = pair
                case .failure(let problem): made.reportFailed(reason: "\(problem)"); continue
                }
            }
            guard !photos.isEmpty else { made.reportFailed(reason: "none of its photos could be decoded"); continue }
            if template.pick == .sequence, options.fewerPhotos == .error, photos.count < options.photosPerCollage {
                made.reportFailed(reason: "\(photos.count) photo(s), but \(template.name) takes \(options.photosPerCollage) "
                                  + "(set 'fewer-photos: shrink' to make a smaller collage)")
                continue
            }
            do {
                var cells: [Image]?
                if template.pick == .pair, let mode = options.align.mode {
                    switch try aligned(photos, mode: mode, renderer: renderer, context: context) {
                    case .aligned(let made): cells = made
                    case .unaligned: break
                    case .dropped(let index):
                        excluded.insert(photos[index].id)
                        chunks.insert(candidates, at: 0)
                        continue
                    }
                }
                let image = try renderer.render(photos, cells: cells)
                number += 1
                let path = try outputPath(for: photos, group: group, number: number, taken: &names)
                try made.publish(path) { url in try options.format.write(image, to: url, quality: options.quality, preset: options.preset) }
                context.logger.info("\(context.step): \(path) from \(photos.count) photo(s)")
            } catch let failure as CollageRenderer.PhotoFailure {
                let photo = photos[failure.index]
                context.reportSkipped(photo, reason: "left out of the collage: \(failure.reason)", kind: failure.failureKind)
                excluded.insert(photo.id)
                // Again without it: the pair is picked anew, a sequence is made from the rest.
                chunks.insert(candidates, at: 0)
            } catch {
                made.reportFailed(reason: "\(error)", kind: FailureKind.of(error))
            }
        }
    }

    /// What aligning a then-and-now pair came to.
    private enum PairAlignment {
        /// The two cells' pictures, aligned and cropped alike.
        case aligned([Image])
        /// A photo could not be aligned and is shown as it is (`unaligned: keep`), with a warning.
        case unaligned
        /// Photo `index` could not be aligned and is left out (`unaligned: drop`): pick the pair again.
        case dropped(Int)
    }

    /// Aligns `pair` for its cells; reports each photo's shift, angle and scale (`-v` and the run's
    /// report), or the photo that could not be aligned, with the reason.
    private func aligned(_ pair: [ItemRecord], mode: AlignmentMode, renderer: CollageRenderer,
                         context: CollectionContext) throws -> PairAlignment {
        let sizes = renderer.photoBoxes(pair).map { PixelSize(width: $0.width, height: $0.height) }
        switch try AlignedPair(mode: mode, fill: options.fill, pixelLimit: renderer.pixelLimit).align(pair, sizes: sizes) {
        case .aligned(let cells, let facts):
            for (photo, fact) in zip(pair, facts) {
                context.recordFacts(photo, topic: "alignment", figures: fact.figures, note: fact.how)
                context.logger.info("\(context.step): \(photo.source.path): \(fact)")
            }
            return .aligned(cells)
        case .unaligned(let index, let reason):
            let photo = pair[index]
            guard options.unaligned == .keep else {
                context.reportSkipped(photo, reason: "left out of the then-and-now collage: \(reason)")
                context.recordFacts(photo, topic: "alignment", figures: [:], note: "left out: \(reason)")
                return .dropped(index)
            }
            context.warn(photo, "shown unaligned: \(reason)")
            context.recordFacts(photo, topic: "alignment", figures: [:], note: "shown unaligned: \(reason)")
            return .unaligned
        }
    }

    /// Consecutive runs of `photos-per-collage` photos.
    private func chunk(_ photos: [ItemRecord]) -> [[ItemRecord]] {
        stride(from: 0, to: photos.count, by: options.photosPerCollage).map {
            Array(photos[$0..<min(photos.count, $0 + options.photosPerCollage)])
        }
    }

    /// The output name: date fields from the collage's first dated photo. A name already used in
    /// this run (a template without `{n}` for a group that makes several) gets `-2`, `-3`...
    private func outputPath(for photos: [ItemRecord], group: PhotoGroup, number: Int, taken: inout Set<String>) throws -> String {
        let first = photos.compactMap { $0.captureDate?.local }.first
        var values = PathTemplate.dateValues(first)
        values["week"] = first.map(PhotoGroups.isoWeek)
        values["template"] = options.template.template.name
        values["n"] = String(number)
        let path: String
        do { path = try options.output.render(values) } catch let error as TemplateError {
            throw StageError("cannot name the collage of \(group.key): \(error.message) (photos without a capture date have no date fields)")
        }
        var unique = path
        var suffix = 2
        while taken.contains(unique) {
            let ext = (path as NSString).pathExtension
            unique = (path as NSString).deletingPathExtension + "-\(suffix)." + ext
            suffix += 1
        }
        taken.insert(unique)
        return unique
    }
}
