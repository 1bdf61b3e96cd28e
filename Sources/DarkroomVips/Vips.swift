internal import CVips
import Foundation
import Synchronization

/// Process-wide libvips set-up. Call `Vips.start()` once before any image work (it is idempotent).
public enum Vips {
    private static let started: Bool = {
        // libvips prints a warning per bad tile on stderr; Darkroom reports errors itself.
        setenv("VIPS_WARNING", "0", 0)
        let ok = darkroom_vips_init("darkroom") == 0
        // Batch work touches each file once, so the operation cache only costs memory; worse, it
        // keys loads by file name and would hand back stale pixels for a file rewritten in place.
        vips_cache_set_max(0)
        darkroom_vips_allow_only_photo_loaders()
        return ok
    }()

    /// Initialises libvips once; throws when the library cannot start.
    public static func start() throws {
        if !started { throw VipsError(operation: "vips_init", message: takeErrorMessage()) }
    }

    /// Sets how many threads libvips uses inside one operation (cores divided by items in flight).
    public static func setConcurrency(_ threads: Int) {
        vips_concurrency_set(Int32(max(1, threads)))
    }

    /// The libvips version, e.g. "8.14.1".
    public static var version: String { String(cString: vips_version_string()) }

    /// Reads and clears libvips' error buffer.
    ///
    /// The buffer is global to all threads, so when several files are decoded at once it can hold
    /// other files' complaints: with `path`, lines naming a different file are dropped, as are
    /// libvips' harmless "bad seek" notes.
    static func takeErrorMessage(path: String? = nil) -> String {
        let message = errorBuffer.withLock { _ in
            defer { vips_error_clear() }
            return String(cString: vips_error_buffer()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let lines = message.split(separator: "\n").map(String.init)
        let relevant = lines.filter { line in
            if line.contains("bad seek to") { return false }
            guard let path else { return true }
            let mentioned = absolutePath.matches(in: line, range: NSRange(line.startIndex..., in: line))
                .compactMap { Range($0.range, in: line).map { String(line[$0]) } }
            return mentioned.isEmpty || mentioned.contains { path.hasPrefix($0) || $0.hasPrefix(path) }
        }
        let kept = relevant.isEmpty ? lines : relevant
        return kept.isEmpty ? "unknown libvips error" : kept.joined(separator: "\n")
    }
    private static let absolutePath = try! NSRegularExpression(pattern: "/(?:[^/\\s\"':]+/)+[^/\"':]*[^/\\s\"':]")
    /// Held while libvips' error buffer (one for all threads) is read and cleared.
    private static let errorBuffer = Mutex(())
}

/// A libvips failure: which operation failed and libvips' own words for why.
public struct VipsError: Error, CustomStringConvertible, Sendable {
    /// The operation that failed (`thumbnail`, `jpegsave`, ...).
    public var operation: String
    /// libvips' explanation, one line per reason.
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String {
        // libvips prefixes lines with the loader name; keep only the distinct reasons.
        var seen = Set<String>()
        let lines = message.split(separator: "\n").map(String.init).filter { seen.insert($0).inserted }
        return lines.joined(separator: "; ")
    }
}
