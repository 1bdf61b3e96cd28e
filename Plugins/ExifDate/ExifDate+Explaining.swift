import DarkroomCore
import Foundation

extension ExifDate: CaptureDateExplaining {
    public func explainCaptureDate(of item: Item, settings: RunSettings) throws -> any CaptureDateExplanation {
        try explain(item, settings: settings)
    }
}

extension DateExplanation: CaptureDateExplanation {}
