/// How Google Takeout names a media file's JSON, as peers measured it on real exports
/// (immich-go's matchers, Google Photos Takeout Helper, ente's importer; 2020-2025):
///
/// - `IMG_1234.jpg.json`, since late 2024 also `IMG_1234.jpg.supplemental-metadata.json`; older
///   exports sometimes `IMG_1234.json`.
/// - The name before `.json` is cut to 46 UTF-16 code units (51 characters with `.json`; Google's
///   servers count in UTF-16, so an emoji counts twice): `IMG_1234.jpg.supplemental-metad.json`,
///   `…_n.j.json`, even `name..json` when only the dot of `.supplemental-metadata` fits.
/// - A duplicate's counter leaves the file name and follows the cut name: `IMG_1234(1).jpg` has
///   `IMG_1234.jpg(1).json` or `IMG_1234.jpg.supplemental-metadata(1).json`; some exports keep
///   it in place (`skytree (2).jpg.supplemental-metadata.json`).
/// - An edited copy has no JSON of its own: `IMG_1234-edited.jpg` uses `IMG_1234.jpg.json`, with
///   the suffix in the account's language (`-bearbeitet`, `-modifié`, ...).
enum TakeoutNaming {
    /// The length Takeout cuts a JSON name to before `.json` (and the counter), in UTF-16 code units.
    static let limit = 46
    static let supplemental = ".supplemental-metadata"

    /// Suffixes of edited copies in the languages peers have documented (Google Photos Takeout
    /// Helper's list): English, Polish, German, Dutch, Japanese, Chinese, Italian, French, Spanish,
    /// Catalan.
    static let editedSuffixes = ["-edited", "-edytowane", "-bearbeitet", "-bewerkt", "-編集済み", "-编辑",
                                 "-modificato", "-modifié", "-ha editado", "-editado", "-editat"]

    /// A name a media file's JSON may have, and how Takeout came to name it so.
    struct Candidate: Equatable {
        var name: String
        /// The original's name when the JSON belongs to the original of an edited copy.
        var original: String?
        var naming: Naming
    }

    /// How a JSON name was made from a media name; described only for the names found.
    struct Naming: Equatable {
        enum Form: Equatable { case supplemental, plain, withoutExtension }
        var form: Form
        /// The name it was made from.
        var source: String
        var isCut: Bool
        /// The duplicate counter that moved after the name, or "".
        var movedCounter: String

        /// "named after IMG_1.jpg with .supplemental-metadata, cut to 46 characters".
        var description: String {
            var text = "named after \(source)"
            switch form {
            case .supplemental: text += " with .supplemental-metadata"
            case .plain: break
            case .withoutExtension: text += " without its extension"
            }
            if isCut { text += ", cut to \(TakeoutNaming.limit) characters" }
            if !movedCounter.isEmpty { text += ", with the duplicate counter \(movedCounter) after it" }
            return text
        }
    }

    /// Every name the JSON of `mediaName` may have, the most specific first, without repeats.
    static func candidates(for mediaName: String) -> [Candidate] {
        let parts = NameParts(mediaName)
        var found: [Candidate] = []
        found.reserveCapacity(24)
        func add(_ names: [(String, Naming)], original: String? = nil) {
            for (name, naming) in names where !found.contains(where: { $0.name == name }) {
                found.append(Candidate(name: name, original: original, naming: naming))
            }
        }
        // Named after the file as it is, counter and all; then with the counter moved after the (cut) name.
        add(namings(of: mediaName, counter: ""))
        if !parts.counter.isEmpty { add(namings(of: parts.base + parts.ext, counter: parts.counter)) }
        add(withoutExtension(parts.base, counter: parts.counter))
        // An edited copy: its original's JSON.
        let lowercasedBase = parts.base.lowercased()
        for suffix in editedSuffixes where lowercasedBase.hasSuffix(suffix) && parts.base.count > suffix.count {
            let originalBase = String(parts.base.dropLast(suffix.count))
            add(namings(of: originalBase + parts.ext, counter: parts.counter) + withoutExtension(originalBase, counter: parts.counter),
                original: originalBase + parts.counter + parts.ext)
        }
        return found
    }

    /// `name.json` and `name.supplemental-metadata.json`, whole and cut, with `counter` before `.json`.
    private static func namings(of name: String, counter: String) -> [(String, Naming)] {
        [
            (name + supplemental + counter + ".json", Naming(form: .supplemental, source: name, isCut: false, movedCounter: counter)),
            (cut(name + supplemental) + counter + ".json", Naming(form: .supplemental, source: name, isCut: true, movedCounter: counter)),
            (name + counter + ".json", Naming(form: .plain, source: name, isCut: false, movedCounter: counter)),
            (cut(name) + counter + ".json", Naming(form: .plain, source: name, isCut: true, movedCounter: counter)),
        ]
    }

    private static func withoutExtension(_ base: String, counter: String) -> [(String, Naming)] {
        [(base + counter + ".json", Naming(form: .withoutExtension, source: base + counter, isCut: false, movedCounter: "")),
         (cut(base) + counter + ".json", Naming(form: .withoutExtension, source: base + counter, isCut: true, movedCounter: ""))]
    }

    /// The first `limit` UTF-16 code units of `name`, not splitting a character's surrogate pair.
    static func cut(_ name: String) -> String {
        guard name.utf16.count > limit else { return name }
        var units = 0
        var end = name.unicodeScalars.startIndex
        for scalar in name.unicodeScalars {
            units += scalar.utf16.count
            guard units <= limit else { break }
            end = name.unicodeScalars.index(after: end)
        }
        return String(name.unicodeScalars[..<end])
    }

    /// The media file name a Takeout JSON name points at, as far as the name tells (a cut name
    /// gives a cut media name): `IMG_1.jpg.supplemental-me(2).json` -> `IMG_1(2).jpg`. Nil for a
    /// name that does not end in `.json`.
    static func mediaName(forJSON jsonName: String) -> String? {
        guard jsonName.lowercased().hasSuffix(".json") else { return nil }
        var stem = String(jsonName.dropLast(5))
        let counter = NameParts.trailingCounter(of: stem)
        stem = String(stem.dropLast(counter.count))
        if let dot = stem.lastIndex(of: "."), ("supplemental-metadata").hasPrefix(stem[stem.index(after: dot)...].lowercased()) {
            stem = String(stem[..<dot])
        }
        let parts = NameParts(stem)
        return parts.base + counter + parts.ext
    }
}

/// A media file name in Takeout's terms: `IMG_1234-edited(1).jpg` is base `IMG_1234-edited`,
/// counter `(1)`, extension `.jpg`.
struct NameParts {
    var base: String
    var counter: String
    var ext: String

    init(_ name: String) {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            ext = String(name[dot...])
            base = String(name[..<dot])
        } else {
            ext = ""
            base = name
        }
        counter = Self.trailingCounter(of: base)
        base = String(base.dropLast(counter.count))
    }

    /// A `(digits)` at the end of `text`, or "".
    static func trailingCounter(of text: String) -> String {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return "" }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "" }
        return String(text[open...])
    }
}
