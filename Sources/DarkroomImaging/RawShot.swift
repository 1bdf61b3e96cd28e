import DarkroomCore
import DarkroomRaw
import Foundation

extension CameraShot {
    /// The shot a RAW file names in its own structures (TIFF-based RAWs, CR3's CMT boxes, RAF's,
    /// ORF's): its camera and capture time. Nil when the RAW's metadata cannot be read or lacks either.
    public static func ofRaw(at url: URL) -> CameraShot? {
        guard let metadata = try? RawMetadata.read(path: url.path) else { return nil }
        return CameraShot(make: metadata.make, model: metadata.model, dateTimeOriginal: metadata.dateTimeOriginal,
                          subSeconds: metadata.subSecTimeOriginal)
    }
}
