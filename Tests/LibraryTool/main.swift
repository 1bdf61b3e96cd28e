import DarkroomCatalog
import DarkroomCore
import DarkroomLibrary
import DarkroomShards
import DarkroomModel
import Foundation

// A process of its own for LibraryTests: opens catalogs (two at once, to race their upgrades),
// makes catalogs as older Darkrooms left them, and publishes or appends with a kill injected at a
// chosen point (FaultInjection), so that a test can check what the library looks like afterwards.
//
//   library-tool open <library> [--at <seconds since 1970>]
//   library-tool make-outdated <library> <last migration applied>
//   library-tool publish <library> <subject> [--kill-at "<fault point>"] <path>=<text>...
//   library-tool append-manifest <library> <pipeline> <shard index> <shard count> [--kill-after-bytes <n>]

/// Takes `--name value` out of the arguments.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(at...at + 1) }
    return arguments[at + 1]
}

func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count >= 2 else { throw RunError("usage: library-tool open|make-outdated|publish|append-manifest <library> ...") }
    let command = arguments.removeFirst()
    let library = URL(fileURLWithPath: arguments.removeFirst(), isDirectory: true)
    switch command {
    case "open":
        // Both processes of a race start opening at the same instant.
        if let at = option("--at", in: &arguments).flatMap(Double.init) {
            let wait = at - Date().timeIntervalSince1970
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        _ = try Catalog(library: library)
    case "make-outdated":
        try Catalog.createOutdated(library: library, through: arguments[0])
    case "publish":
        let killAt = option("--kill-at", in: &arguments)
        let subject = arguments.removeFirst()
        let catalog = try Catalog(library: library)
        let run = try catalog.beginRun(pipeline: "library-tool")
        let publisher = try Publisher(library: library, catalog: catalog, run: run,
                                      temporaryFolder: Publisher.sharedTemporaryFolder(library: library))
        let publication = publisher.publication(subject: subject, source: nil)
        for file in arguments {
            let parts = file.split(separator: "=", maxSplits: 1).map(String.init)
            try publication.stage(parts[0], step: "tool") { try Data(parts[1].utf8).write(to: $0) }
        }
        if let killAt { FaultInjection.install { $0.description == killAt ? .kill : .proceed } }
        try publication.publish()
        try publication.commit(units: [.init(step: "tool", key: "tool")], asset: nil, to: catalog)
    case "append-manifest":
        let killAfter = option("--kill-after-bytes", in: &arguments).flatMap(Int.init)
        let manifest = try ShardManifest(library: library, pipelineName: arguments[0],
                                         shard: try Shard(index: Int(arguments[1]) ?? -1, count: Int(arguments[2]) ?? 0), snapshot: nil)
        _ = try manifest.beginRun(pipeline: "library-tool")
        if let killAfter {
            FaultInjection.install { point in
                if case .appending = point { return .killAfterWriting(killAfter) }
                return .proceed
            }
        }
        try manifest.rememberHashes([FileFingerprint(path: "/card/a.jpg", size: 1, mtimeNanoseconds: 2, inode: 3, hash: "torn")])
    default:
        throw RunError("unknown command \(command)")
    }
}

do {
    try main()
    print("ok")
} catch {
    FileHandle.standardError.write(Data("library-tool: \(error)\n".utf8))
    exit(1)
}
