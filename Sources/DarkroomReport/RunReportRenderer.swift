import Foundation

/// Writes a run's report as a page to look at (`darkroom run ... --report run.html`). The gallery
/// stage provides one in its look; the command line gets it from the built-in stages, so that it
/// depends on no stage itself.
public protocol RunReportRenderer: Sendable {
    /// Writes `report`, of a run into `library`, as a page at `location`, atomically; images over
    /// `pixelLimit` pixels are not shown.
    func write(_ report: RunReport, library: URL, to location: URL, pixelLimit: Int) throws
}
