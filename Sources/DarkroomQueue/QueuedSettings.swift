import DarkroomCore
import Foundation

/// The run settings a queued pipeline carries (`PipelineRecord.settingsJSON`), so that every
/// worker runs it as it was enqueued: `darkroom enqueue` stores them, each worker decodes and checks
/// them before it runs a job of the pipeline.
public struct QueuedSettings: Codable, Sendable, Equatable {
    /// The library's absolute path.
    public var library: String
    /// The largest image accepted, in pixels.
    public var pixelLimit: Int
    /// The time zone for times without an offset, by identifier (`Europe/Paris`).
    public var timeZone: String

    /// Settings to store.
    public init(library: String, pixelLimit: Int, timeZone: String) {
        self.library = library; self.pixelLimit = pixelLimit; self.timeZone = timeZone
    }

    /// The settings stored with `record`; throws `QueuedSettingsError` naming the pipeline when
    /// they are not the settings' JSON.
    public init(record: PipelineRecord) throws {
        do {
            self = try JSONDecoder().decode(QueuedSettings.self, from: Data(record.settingsJSON.utf8))
        } catch {
            throw QueuedSettingsError(pipeline: record.fileName, reason: "they are not the settings' JSON (\(error))")
        }
    }

    /// The JSON a `PipelineRecord` stores (what `init(record:)` reads).
    public func json() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    /// The runner's settings, with `jobs` threads, once checked: throws `QueuedSettingsError` naming
    /// `pipeline` for a relative library, a pixel limit below 1, or a time zone this machine does not
    /// know (never this machine's zone instead).
    public func runSettings(jobs: Int, pipeline: String) throws -> RunSettings {
        func refuse(_ reason: String) -> QueuedSettingsError { QueuedSettingsError(pipeline: pipeline, reason: reason) }
        guard library.hasPrefix("/") else { throw refuse("the library '\(library)' is not an absolute path") }
        guard pixelLimit >= 1 else { throw refuse("the pixel limit \(pixelLimit) is not a positive number") }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw refuse("the time zone '\(timeZone)' is not known on this machine (is its tzdata older than the enqueuer's?)")
        }
        return RunSettings(library: URL(fileURLWithPath: library, isDirectory: true), pixelLimit: pixelLimit, timeZone: zone, jobs: jobs)
    }
}

extension PipelineRecord {
    /// The run settings this pipeline was enqueued with, decoded and checked (see
    /// `QueuedSettings.runSettings(jobs:pipeline:)`), with `jobs` threads.
    public func runSettings(jobs: Int) throws -> RunSettings {
        try QueuedSettings(record: self).runSettings(jobs: jobs, pipeline: fileName)
    }
}

/// Queued settings a worker cannot use: the job fails with this reason.
public struct QueuedSettingsError: Error, CustomStringConvertible {
    /// The pipeline (its file name) whose settings these are.
    public var pipeline: String
    /// What is wrong with them.
    public var reason: String

    /// What is wrong, for messages.
    public var description: String { "the settings queued with \(pipeline) cannot be used: \(reason)" }
}
