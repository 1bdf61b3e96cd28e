import DarkroomCore
import DarkroomModel
import Foundation

extension ExifDate: CaptureDateExplaining {
    public func explainCaptureDate(of item: Item, settings: RunSettings) throws -> any CaptureDateExplanation {
        try explain(item, settings: settings)
    }

    public func explainRecordedCaptureDate(ofFailing item: Item, settings: RunSettings) -> (any CaptureDateExplanation)? {
        // Only a RAW has metadata of its own that is read apart from its pixels (its structures, not
        // LibRaw), a Sigma X3F's too.
        let isRaw = item.isRaw || MediaKind.undecodedRawPhotoExtensions.contains(MediaKind.fileExtension(of: item.fileName))
        guard isRaw, let metadata = try? item.rawMetadataAlone() else { return nil }
        return try? explain(item, settings: settings, metadata: metadata)
    }
}

extension DateExplanation: CaptureDateExplanation {}
