import DarkroomLibrary
import DarkroomModel
import Foundation

/// Gives each exported photo a base name (without extension) no other file of the destination
/// has: its capture time (`2024-05-01 18.30.12`), its original's name (`IMG_4520`) or its place in
/// capture order (`0001`), with `-2`, `-3`... for the second and third photo that would share it.
/// Names are compared ignoring case, as the FAT and exFAT of USB sticks and cards do.
struct ExportNamer {
    let naming: ExportNaming
    private var taken: Set<String>
    /// Numbers of files named by sequence already there, whatever their padding (`0001.jpg` takes 1).
    private var takenNumbers: Set<Int>
    private var nextNumber = 1
    private let digits: Int

    /// A namer for `count` photos, avoiding every name in `taken` (the destination's files, whoever made them).
    init(naming: ExportNaming, taken: Set<String>, count: Int) {
        self.naming = naming
        self.taken = Set(taken.map { $0.lowercased() })
        takenNumbers = Set(taken.compactMap { name in
            let stem = name.prefix { $0 != "." }
            return !stem.isEmpty && stem.allSatisfy(\.isASCII) && stem.allSatisfy(\.isNumber) ? Int(stem) : nil
        })
        digits = max(4, String(count).count)
    }

    /// Marks a photo's files as taken (a photo exported before keeps its names).
    mutating func reserve(_ names: [String]) {
        for name in names { taken.insert(name.lowercased()) }
    }

    /// A base name for `asset` free with every extension in `extensions` (`jpg`, `mov`, `jpg.xmp`),
    /// and reserves them: `preferring` (the photo's earlier name) when its files (`ownNames` aside) are free.
    mutating func name(for asset: AssetFacts, extensions: [String], preferring: String? = nil, ownNames: [String] = []) -> String {
        if let preferring {
            let own = Set(ownNames.map { $0.lowercased() })
            let wanted = extensions.map { "\(preferring).\($0)".lowercased() }
            if wanted.allSatisfy({ own.contains($0) || !taken.contains($0) }) {
                reserve(wanted)
                return preferring
            }
        }
        let base: String
        switch naming {
        case .date: base = asset.captureDate.map { Self.dateName($0.local) } ?? Self.originalStem(asset.originalPath)
        case .original: base = Self.originalStem(asset.originalPath)
        case .sequence:
            while takenNumbers.contains(nextNumber) || isTaken(String(format: "%0\(digits)d", nextNumber), extensions) { nextNumber += 1 }
            base = String(format: "%0\(digits)d", nextNumber)
            nextNumber += 1
        }
        var candidate = base, counter = 1
        while isTaken(candidate, extensions) {
            counter += 1
            candidate = "\(base)-\(counter)"
        }
        reserve(extensions.map { "\(candidate).\($0)" })
        return candidate
    }

    private func isTaken(_ base: String, _ extensions: [String]) -> Bool {
        extensions.contains { taken.contains("\(base).\($0)".lowercased()) }
    }

    /// `2024-05-01 18.30.12`: the capture time as the photographer's clock showed it (dots, not
    /// colons, which Windows and macOS's Finder refuse in names).
    static func dateName(_ local: LocalDateTime) -> String {
        String(format: "%04d-%02d-%02d %02d.%02d.%02d", local.year, local.month, local.day, local.hour, local.minute, local.second)
    }

    /// The original's name without its extension, made safe for any filesystem and archive: no
    /// slash, backslash, control character or character Windows refuses, no leading dot, at most
    /// 120 characters; `photo` when nothing is left.
    static func originalStem(_ path: String) -> String {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let refused = Set("/\\:*?\"<>|")
        var safe = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control || refused.contains(Character(scalar)) ? "_" : Character(scalar)
        })
        while safe.hasPrefix(".") { safe.removeFirst() }
        safe = String(safe.prefix(120)).trimmingCharacters(in: .whitespaces)
        return safe.isEmpty ? "photo" : safe
    }
}
