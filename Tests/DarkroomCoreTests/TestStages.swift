import DarkroomCore
import Foundation
import Synchronization
import DarkroomModel
import DarkroomOptions

/// Stages defined outside the built-in modules, as a third party would write them.
/// They work on small text files: the first line is a date (`2024-01-05`), the rest is content.

/// Counts how often each test stage ran, across threads.
final class Invocations: Sendable {
    static let shared = Invocations()
    private let counts = Mutex<[String: Int]>([:])

    func record(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    func count(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
    func reset() { counts.withLock { $0 = [:] } }
}

/// Reads the date on the first line into `captureDate`; fails on files whose name contains "bad".
struct TextDate: Stage {
    static let name = "text-date"
    static let summary = "Capture date from the first line of a text file."
    static let writes: Set<ItemAspect> = [.captureDate]
    static let media: Set<MediaKind> = [.photo, .video]
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        Invocations.shared.record(Self.name)
        if item.fileName.contains("bad") { throw StageError("unreadable test file") }
        let text = try String(contentsOf: item.source, encoding: .utf8)
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let date = LocalDateTime(year: parts[0], month: parts[1], day: parts[2]) else {
            throw StageError("no date on the first line")
        }
        item.captureDate = CaptureDate(local: date, utcOffsetSeconds: nil, source: .filename, timeZoneSource: .unknown, confidence: .high)
    }
}

/// Publishes an upper-cased copy of the file at a path template.
struct Shout: Stage {
    static let name = "shout"
    static let summary = "Upper-cased copy of a text file."
    static let reads: Set<ItemAspect> = [.captureDate]

    struct Options: StageOptions {
        var output: PathTemplate
        var suffix: String
        static let outputOption = StageOption.template("output", default: "shouts/{yyyy}/{MM}/{id}.txt", "Where the copy goes.")
        static let suffixOption = StageOption<String>.value("suffix", default: "!", accepts: "at most 3 characters",
                                                       where: { $0.count <= 3 }, "Appended to the text.")
        static let options: [any OptionDeclaration] = [outputOption, suffixOption]

        init(from decoder: Decoder) throws {
            let reader = try OptionsReader(decoder, declaring: Self.options)
            output = reader.read(Self.outputOption)
            suffix = reader.read(Self.suffixOption)
            try reader.finish()
        }
    }

    let options: Options
    init(options: Options) { self.options = options }

    func process(_ item: Item, context: StageContext) throws {
        Invocations.shared.record(Self.name)
        let text = try String(contentsOf: item.source, encoding: .utf8).uppercased() + options.suffix
        try context.publish(try options.output.render(PathTemplate.values(for: item))) { url in
            try Data(text.utf8).write(to: url)
        }
    }
}

/// Writes the order in which items arrive, one file name a line.
struct Roll: CollectionStage {
    static let name = "roll"
    static let summary = "Lists the items in the order a collection stage receives them."
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func run(_ items: [ItemRecord], context: CollectionContext) throws {
        Invocations.shared.record(Self.name)
        let lines = items.map { "\($0.captureDate?.local.description ?? "-") \($0.fileName)" }.joined(separator: "\n")
        try context.publish("roll.txt") { url in try Data(lines.utf8).write(to: url) }
    }
}

let testRegistry = StageRegistry([StageDescriptor(TextDate.self), StageDescriptor(Shout.self), StageDescriptor(Roll.self),
                                  StageDescriptor(Tamper.self), StageDescriptor(Clip.self), StageDescriptor(Motion.self)])

/// Pairs text "stills" and "videos" by a `pair: KEY` line, as Apple's content identifier pairs a
/// Live Photo's still and MOV; reads it from the file the survey has open.
struct TextPairing: SourceProber {
    func probe(_ file: OpenSource) -> ProbedSource {
        let data = try? FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: false).readToEnd()
        return ProbedSource(pairingKey: data.flatMap { Self.key(in: $0) })
    }

    /// The key in a file's `pair: KEY` line, if it has one.
    static func key(in data: Data) -> String? {
        String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("pair: ") }.map { String($0.dropFirst(6)) }
    }
}

/// Publishes a Live Photo's video beside its still as `motion/{yyyy}/{id}.mov`; notes a still's key.
struct Motion: Stage {
    static let name = "motion"
    static let summary = "A still's motion part, published under the still's id."
    static let reads: Set<ItemAspect> = [.captureDate]
    static let takesMotionParts = true
    static let prober: (any SourceProber)? = TextPairing()
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        Invocations.shared.record(Self.name)
        guard item.motionOf != nil else {
            item.contentIdentifier = (try? Data(contentsOf: item.source)).flatMap(TextPairing.key(in:))
            return
        }
        let values = PathTemplate.values(for: item)
        try context.publish("motion/\(values["yyyy"]!)/\(item.id.uuidString.lowercased()).mov") { url in
            try FileManager.default.copyItem(at: item.source, to: url)
        }
    }
}

/// Publishes a note for each video (a file with a video extension), and takes nothing else.
struct Clip: Stage {
    static let name = "clip"
    static let summary = "A note for each video."
    static let reads: Set<ItemAspect> = [.captureDate]
    static let media: Set<MediaKind> = [.video]
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        Invocations.shared.record(Self.name)
        try context.publish("clips/\(item.fileName).txt") { url in try Data("clip".utf8).write(to: url) }
    }
}

/// Appends to its input while "processing" it, as a sync client or editor might.
struct Tamper: Stage {
    static let name = "tamper"
    static let summary = "Changes the input file while it is being processed."
    typealias Options = NoOptions

    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        let handle = try FileHandle(forWritingTo: item.source)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" edited".utf8))
        try handle.close()
    }
}
