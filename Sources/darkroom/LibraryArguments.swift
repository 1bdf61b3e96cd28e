import ArgumentParser
import Foundation

/// `--library`, for the commands that work on a library that exists (catalog verify, rebuild, merge,
/// set-date). A path that is a file is refused while the command line is parsed (exit 2).
struct LibraryArguments: ParsableArguments {
    @Option(name: [.short, .long], help: "The library folder.")
    var library: String

    /// The library folder, absolute.
    var url: URL { URL(fileURLWithPath: library, isDirectory: true).standardizedFileURL }

    func validate() throws { try LibraryArguments.check(library) }

    /// Refuses a library path that exists and is not a folder: nothing could be written inside it.
    static func check(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError("--library \(path) is a file, not a folder: give the library's folder (it is made when missing)")
        }
    }
}

/// `--library` for the commands whose pipeline file may name the library instead (run, enqueue).
struct PipelineLibraryArguments: ParsableArguments {
    @Option(name: [.short, .long], help: "The library (output) folder. Default: the pipeline's library.")
    var library: String?

    func validate() throws {
        if let library { try LibraryArguments.check(library) }
    }

    /// `--library`, or else the pipeline's `library:`, absolute; an argument error when neither is given.
    func resolve(pipelineLibrary: String?) throws -> URL {
        guard let path = library ?? pipelineLibrary else {
            throw ValidationError("no library: give --library (or 'library:' in the pipeline)")
        }
        try LibraryArguments.check(path)
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }
}

/// `--jobs`: photos (or a job's stages) worked on at once.
struct JobsArguments: ParsableArguments {
    @Option(name: [.short, .long], help: "Photos decoded and encoded at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (1...1024).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 1024, got \(jobs)") }
    }
}
