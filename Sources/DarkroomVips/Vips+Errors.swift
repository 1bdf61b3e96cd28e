internal import CVips
import Foundation

/// libvips 8.14 keeps one error buffer for the whole process: every failing operation, on any thread,
/// adds its lines to it, and libjpeg's and libpng's lines ("Premature end of input file") name no
/// file. So when two files fail at once, reading the buffer gives one file the other's reason, and the
/// other "unknown libvips error". Every libvips call that may add to the buffer therefore runs holding
/// `errorGate` shared (`calling`), and a failure's reason is read holding it alone (`failure`): when
/// the failure is an image decoded from a file, or finding a file's loader, that work is done again,
/// alone, and the lines it leaves are its reason, the same whatever else ran at that moment.
extension Vips {
    /// Held shared by every libvips call that may fail, and alone while a failure's reason is read.
    private static let errorGate = SharedExclusiveLock()

    /// Runs libvips work that may fail (and so write to the error buffer), holding the gate shared.
    /// `body` must not call `calling` or `failure` itself.
    static func calling<T>(_ body: () throws -> T) rethrows -> T {
        try errorGate.shared(body)
    }

    /// The error of `operation`, which has just failed on an image decoded from `source` (nil: made in
    /// memory, whose reason is the lines the buffer holds).
    ///
    /// The file is loaded again as it was and decoded in full, alone: when that fails too, its lines
    /// are the reason; when it decodes, the failure was not the file's (a write, memory) and the lines
    /// the failure left are the reason.
    static func failure(of operation: String, source: Image.Source?) -> VipsError {
        guard let source else { return failure(of: operation) }
        return failure(of: operation, path: source.path) {
            guard let image = source.reload() else { return false }
            defer { darkroom_vips_unref(image) }
            var mean = 0.0
            return darkroom_vips_avg(image, &mean) == 0
        }
    }

    /// The error of `operation`, which has just failed (on the file at `path`, if any).
    ///
    /// With `repeating`, which does the failed work again and says whether it succeeded this time, that
    /// work is done again holding the gate alone (no other thread can write to the buffer then), and
    /// when it fails again the lines it leaves are the reason. Otherwise, or when it succeeds, the
    /// reason is the lines the buffer holds, which another failure at the same moment can have added
    /// to or taken.
    static func failure(of operation: String, path: String? = nil, repeating: (() -> Bool)? = nil) -> VipsError {
        errorGate.exclusive {
            let left = takeErrorMessage(path: path)
            guard let repeating, !repeating() else { return VipsError(operation: operation, message: left) }
            return VipsError(operation: operation, message: takeErrorMessage(path: path))
        }
    }

    /// Reads and clears libvips' error buffer (the caller holds the gate alone).
    ///
    /// With `path`, lines naming a different file are dropped, as are libvips' harmless "bad seek"
    /// notes. A blocked loader's line gets the policy's reason.
    private static func takeErrorMessage(path: String? = nil) -> String {
        let message = String(cString: vips_error_buffer()).trimmingCharacters(in: .whitespacesAndNewlines)
        vips_error_clear()
        let lines = message.split(separator: "\n").map(String.init)
        let relevant = lines.filter { line in
            if line.contains("bad seek to") { return false }
            guard let path else { return true }
            let mentioned = absolutePath.matches(in: line, range: NSRange(line.startIndex..., in: line))
                .compactMap { Range($0.range, in: line).map { String(line[$0]) } }
            return mentioned.isEmpty || mentioned.contains { path.hasPrefix($0) || $0.hasPrefix(path) }
        }
        let kept = relevant.isEmpty ? lines : relevant
        let text = kept.isEmpty ? "unknown libvips error" : kept.joined(separator: "\n")
        return (policy ?? .photoLibrary).explained(text)
    }
    private static let absolutePath = try! NSRegularExpression(pattern: "/(?:[^/\\s\"':]+/)+[^/\"':]*[^/\\s\"':]")
}
