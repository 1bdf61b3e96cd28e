import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import Foundation

/// What the gallery made of each month on its last run, and from what: a month whose photos, whose
/// catalog entries (their revisions) and whose files' folders are as they were then is not read from
/// the catalog again, and its pages are known current from their digests alone. A cache, kept in
/// `.darkroom/gallery-<folder's digest>.json`: each run writes it whole (atomically) for the months it
/// could vouch for, and a run that cannot read it reads every month, as with a catalog that keeps no
/// revisions (PostgreSQL, a shard) or `--force`.
struct MonthMemory: Codable {
    /// Raised when what is remembered of a month, or how it is used, changes.
    static let version = 1

    var version = MonthMemory.version
    /// By the month's key (`2024-03`, `undated`).
    var months: [String: Recalled] = [:]

    /// One month as the last run made it.
    struct Recalled: Codable {
        /// What its pages were made from (`MonthMemory.source`).
        var source: String
        /// The library folders its entries looked for files in (thumbnails, larger renditions,
        /// videos), with their state then (`MonthMemory.state(ofFolder:library:)`).
        var folders: [String: String]
        var pages: [Page]
        var cards: [IndexPage.Card]
        /// How many photos and videos its pages show, and how many of those photos have no larger rendition.
        var shown: Int
        var withoutLarge: Int
    }

    /// One of a month's pages: its place among them, and the digest of what it shows (`PageKeys.content`).
    struct Page: Codable {
        var file: String
        var part: Int
        var parts: Int
        var content: String
    }

    /// The key a month is remembered by.
    static func key(_ month: Month?) -> String { month?.key ?? "undated" }

    /// What a month's pages are made from, but the library's files: `settings` (the build's way of
    /// writing pages and the step's options), and each of its items (content hash, which gives its id;
    /// file, date, burst role) with its catalog revision. Numbers written as numbers: this is worked
    /// out for every photo on every run.
    static func source(of items: [ItemRecord], revisions: [String: Int64], settings: String) -> String {
        var text = "\(version)|\(settings)\n"
        text.reserveCapacity(items.count * 160)
        for item in items {
            text += "\(item.contentHash)|\(revisions[item.contentHash] ?? 0)|\(item.relativePath)|"
            if let date = item.captureDate {
                let local = date.local
                text += "\(local.year)-\(local.month)-\(local.day) \(local.hour):\(local.minute):\(local.second).\(local.nanosecond)"
                text += " \(date.utcOffsetSeconds ?? Int.min) \(date.source.rawValue) \(date.timeZoneSource.rawValue) \(date.confidence.rawValue)|"
            } else {
                text += "-|"
            }
            if let burst = item.burst { text += "\(burst.pick)/\(burst.frames)" }
            text += "\n"
        }
        return ContentHash.of(text)
    }

    /// Each of `months`' `source`, its photos' revisions read from the catalog (`revisions`) a few
    /// whole months at a time (up to `atOnce` photos a read, at least a month) and let go of once
    /// their months' sources are worked out: every photo's revision read at once was the largest part
    /// of a gallery run over 100,000 photos at its peak (43 MB of 126). Nil when the catalog keeps no
    /// revisions.
    static func sources(of months: [TimelineMonth], items: [ItemRecord], settings: String, jobs: Int, atOnce: Int = 10_000,
                        revisions: ([String]) throws -> [String: Int64]?) rethrows -> [String]? {
        var sources: [String] = []
        sources.reserveCapacity(months.count)
        var start = 0
        while start < months.count {
            var end = start + 1, count = months[start].positions.count
            while end < months.count, count + months[end].positions.count <= atOnce {
                count += months[end].positions.count
                end += 1
            }
            let read = months[start..<end].map { $0.items(of: items) }
            guard let revisions = try revisions(read.flatMap { $0.map(\.contentHash) }) else { return nil }
            sources += DarkroomThreads.map(count: read.count, jobs: jobs) { source(of: read[$0], revisions: revisions, settings: settings) }
            start = end
        }
        return sources
    }

    /// A library folder's state: its device, inode and modification time, which change whenever a
    /// file is added to it, removed from it or renamed in it; `absent` when it is not there.
    static func state(ofFolder folder: String, library: URL) -> String {
        let path = folder.isEmpty ? library.path : library.appendingPathComponent(folder, isDirectory: true).path
        guard let info = FileInfo(path: path, followLinks: true), info.isDirectory else { return "absent" }
        return "\(info.id.device):\(info.id.inode):\(info.modificationNanoseconds)"
    }

    /// The states of `folders` now.
    static func states(of folders: Set<String>, library: URL) -> [String: String] {
        Dictionary(uniqueKeysWithValues: folders.map { ($0, state(ofFolder: $0, library: library)) })
    }

    /// The months of `months` (their `sources`, in the same order) this memory vouches for: made from
    /// the same source, their folders as they were. By position in `months`.
    func recalled(_ months: [TimelineMonth], sources: [String], library: URL) -> [Int: Recalled] {
        var recalled: [Int: Recalled] = [:]
        for (index, month) in months.enumerated() {
            guard let memory = self.months[Self.key(month.month)], memory.source == sources[index],
                  memory.folders.allSatisfy({ Self.state(ofFolder: $0.key, library: library) == $0.value }) else { continue }
            recalled[index] = memory
        }
        return recalled
    }

    /// Where the memory of the gallery in `folder` is kept.
    static func file(library: URL, folder: String) -> URL {
        library.appendingPathComponent(".darkroom/gallery-\(ContentHash.of(folder).prefix(16)).json", isDirectory: false)
    }

    /// The memory kept at `file`; nil when there is none, or it cannot be read, or an older build wrote it.
    static func load(_ file: URL) -> MonthMemory? {
        guard let data = try? Data(contentsOf: file), let memory = try? JSONDecoder().decode(MonthMemory.self, from: data),
              memory.version == version else { return nil }
        return memory
    }

    /// Writes the memory to `file`, replacing it whole.
    func save(_ file: URL) throws {
        try JSONEncoder().encode(self).write(to: file, options: .atomic)
    }
}
