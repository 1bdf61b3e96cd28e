import DarkroomModel

extension CaptureInstant {
    /// A capture date as an instant: its local time read as UTC, offset by the zone when known (only
    /// differences between shots of one camera count); sub-seconds known when the date has a fraction.
    public init(_ date: CaptureDate) {
        let seconds = date.sortingInstant.timeIntervalSince1970
        self.init(seconds: seconds, hasSubseconds: date.local.nanosecond != 0)
    }
}

extension SimilarPhoto {
    /// A catalogued photo as the finder sees it: what the catalog keeps of it (`facts` nil when
    /// nothing was learned; a fingerprint that does not decode counts as none).
    public init(id: String, path: String, camera: String?, captureDate: CaptureDate?, width: Int?, height: Int?,
                modifiedNanoseconds: Int64, facts: SimilarityFacts?) {
        let fingerprint = facts?.fingerprint.flatMap { $0.isEmpty ? nil : try? SimilarityFingerprint(storedBytes: $0) }
        self.init(id: id, path: path, fingerprint: fingerprint, pixelCount: (width ?? 0) * (height ?? 0),
                  modifiedNanoseconds: modifiedNanoseconds, camera: camera, captured: captureDate.map(CaptureInstant.init),
                  burst: facts?.burst, sharpness: facts?.sharpness)
    }
}
