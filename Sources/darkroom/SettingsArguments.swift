import ArgumentParser
import DarkroomCore
import Foundation

/// The photo settings `run` and `enqueue` share, checked while the command line is parsed, so a
/// mistake points at its option and nothing absurd reaches a run or is stored for every worker.
struct PhotoSettingsArguments: ParsableArguments {
    /// The largest `--max-megapixels` accepted: 100 gigapixels, far past any camera, well inside `Int`.
    static let megapixelCeiling = 100_000.0

    @Option(help: ArgumentHelp("Refuse images over this many megapixels, from the header, before decoding (0.01 to 100000).",
                               valueName: "megapixels"),
            transform: PhotoSettingsArguments.megapixels)
    var maxMegapixels: Double = 100

    @Option(help: ArgumentHelp("Time zone for times without an offset (GPS UTC, file times), e.g. Europe/Paris. Default: this machine's.",
                               valueName: "zone"),
            transform: PhotoSettingsArguments.timeZone)
    var timeZone: TimeZone?

    /// `--max-megapixels` in pixels.
    var pixelLimit: Int { Int((maxMegapixels * 1_000_000).rounded()) }

    /// `--time-zone`, or this machine's zone.
    var zone: TimeZone { timeZone ?? .current }

    static func megapixels(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 0.01, value <= megapixelCeiling else {
            throw ValidationError("expected a number of megapixels from 0.01 to \(Int(megapixelCeiling)), got '\(text)'")
        }
        return value
    }

    static func timeZone(_ text: String) throws -> TimeZone {
        guard let zone = TimeZone(identifier: text) else {
            throw ValidationError("unknown time zone '\(text)' (use a name like Europe/Paris or UTC)")
        }
        return zone
    }
}
