import DarkroomReport
import Foundation

extension RunReport {
    /// The sidecars of a survey's entries, each with its photo, sorted by photo.
    static func sidecars(of entries: [Runner.SurveyEntry]) -> [SidecarUse] {
        entries.flatMap { entry in
            entry.found.sidecars.map { SidecarUse(path: $0.url.path, of: entry.found.path, kind: $0.kind, reason: $0.reason) }
        }.sorted { ($0.of, $0.path) < ($1.of, $1.path) }
    }
}
