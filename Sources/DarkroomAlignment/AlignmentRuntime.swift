internal import CAlignment
import Foundation
import Synchronization

/// Process-wide set-up of the aligners: OpenCV's thread count and the face cascades.
///
/// Call `start(threads:)` once before any aligner is made (the native runtime does, before any worker
/// thread); every aligner's initialiser throws `AlignmentError.notStarted` otherwise.
public enum AlignmentRuntime {
    /// Where Debian's `opencv-data` puts the Haar cascades.
    public static let debianCascadeDirectory = "/usr/share/opencv4/haarcascades"
    /// The cascades the face aligner loads: frontal faces, both eyes, and each eye on its own (the
    /// subject's right eye is on the left of the picture).
    public static let cascadeNames = (face: "haarcascade_frontalface_alt2.xml", eyes: "haarcascade_eye.xml",
                                      pictureLeftEye: "haarcascade_righteye_2splits.xml",
                                      pictureRightEye: "haarcascade_lefteye_2splits.xml")

    struct Started {
        var threads: Int
        var cascadeDirectory: String

        func cascade(_ name: String) -> String { (cascadeDirectory as NSString).appendingPathComponent(name) }
    }

    private static let state = Mutex<Started?>(nil)

    /// Sets OpenCV's thread count to `threads` (what the run allows alignment; 1: no threads of its own)
    /// and, the first time, where the face cascades are. Idempotent and safe from any thread; a later
    /// call only changes the thread count. The cascades are loaded (and a missing one named) by
    /// `FaceAligner`, so that scene alignment and stages that never align do not need them installed.
    public static func start(threads: Int, cascadeDirectory: String = debianCascadeDirectory) {
        state.withLock { started in
            calign_set_threads(Int32(max(1, threads)))
            if started != nil {
                started?.threads = threads
            } else {
                started = Started(threads: threads, cascadeDirectory: cascadeDirectory)
            }
        }
    }

    /// The settings of `start`, or `notStarted`.
    static func requireStarted() throws -> Started {
        guard let started = state.withLock({ $0 }) else { throw AlignmentError.notStarted }
        return started
    }

    /// The thread count OpenCV uses now.
    public static var openCVThreads: Int { Int(calign_threads()) }
}

/// A C status and message as an `AlignmentError`.
func check(_ status: Int32, _ error: inout calign_error) throws {
    guard status != CALIGN_OK.rawValue else { return }
    let message = withUnsafeBytes(of: &error.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    switch UInt32(status) {
    case CALIGN_INVALID_ARGUMENT.rawValue: throw AlignmentError.invalidImage(message)
    default: throw AlignmentError.native(message)
    }
}
