import DarkroomModel
import DarkroomZip
import Foundation

/// Exports into a ZIP archive, written streaming by `ZipWriter` (a temporary file beside it,
/// renamed into place when finished; ZIP64 past 4 GiB). An archive an earlier export made is read
/// (`ZipReader`) for its record: with nothing new it is left untouched; otherwise a new archive is
/// written with the earlier entries copied over as they are (no photo is encoded again) and the new
/// ones after them, and replaces it. Every entry is stored (photos do not shrink).
final class ZipTarget: ExportTarget {
    let archive: URL
    private(set) var records: [String: ExportRecord] = [:]
    private(set) var existingNames: Set<String> = []
    var scratch: URL { archive.deletingLastPathComponent() }
    private var previous: ZipReader?
    private var writer: ZipWriter?

    /// Reads the archive an earlier export made, if there is one; refuses any other file there.
    init(archive: URL) throws {
        self.archive = archive
        guard FileManager.default.fileExists(atPath: archive.path) else { return }
        let reader: ZipReader
        do { reader = try ZipReader(url: archive) } catch {
            throw ExportRefusal("\(archive.path) exists and is not an archive darkroom export made (\(error)); give another --zip")
        }
        guard let recordEntry = reader.entries.first(where: { $0.name == ExportRecord.name }), let journal = try? reader.data(of: recordEntry) else {
            throw ExportRefusal("\(archive.path) exists and was not made by darkroom export (it has no \(ExportRecord.name)); give another --zip")
        }
        guard reader.entries.allSatisfy({ $0.method == 0 }) else {
            throw ExportRefusal("\(archive.path) has compressed entries, which darkroom export does not write; give another --zip")
        }
        previous = reader
        records = ExportRecord.read(journal)
        existingNames = Set(reader.entries.map(\.name).filter { $0 != ExportRecord.name })
    }

    func isPresent(_ record: ExportRecord) -> Bool { record.files.allSatisfy(existingNames.contains) }

    func begin(replacing subjects: Set<String>) throws {
        var options = ZipWriter.Options()
        options.replaceExisting = previous != nil
        let writer = try ZipWriter(creating: archive, options: options)
        self.writer = writer
        guard let previous else { return }
        let replaced = Set(subjects.flatMap { records[$0]?.files ?? [] })
        do {
            for entry in previous.entries where entry.name != ExportRecord.name && !replaced.contains(entry.name) {
                try writer.addFile(previous.url, range: try previous.dataRange(of: entry), as: entry.name, modified: entry.modified)
            }
        } catch {
            writer.discard()
            throw ExportStop(path: archive.path, reason: "cannot copy the archive's earlier entries: \(error)")
        }
        existingNames.subtract(replaced)
    }

    func publish(_ files: [ExportedFile], record: ExportRecord) throws {
        guard let writer else { throw ExportStop(path: archive.path, reason: "the archive was not started") }
        for file in files {
            do {
                switch file.content {
                case .data(let data): try writer.addData(data, as: file.name, modified: file.modified, compression: .store)
                case .file(let url, let temporary):
                    defer { if temporary { unlink(url.path) } }
                    try writer.addFile(url, as: file.name, modified: file.modified)
                }
            } catch let error as ZipError where Self.concernsEntryAlone(error) {
                throw ExportFileError(path: error.path, reason: error.reason.description)
            } catch {
                throw ExportStop(path: archive.path, reason: "\(error)")
            }
            existingNames.insert(file.name)
        }
        records[record.subject] = record
    }

    func finish() throws {
        guard let writer else { return }
        do {
            try writer.addData(ExportRecord.journal(records), as: ExportRecord.name, modified: Date(), compression: .store)
            try writer.finish()
        } catch {
            throw ExportStop(path: archive.path, reason: "\(error)")
        }
    }

    func abandon() { writer?.discard() }

    /// Errors found before an entry's first byte was written: the archive goes on without it.
    private static func concernsEntryAlone(_ error: ZipError) -> Bool {
        switch error.reason {
        case .notARegularFile, .invalidName, .duplicateName: return true
        case .system(let operation, _): return operation == "opening" || operation == "reading its size"
        default: return false
        }
    }
}

/// An export refused before anything was written (an archive that is not one of ours): exit 2.
public struct ExportRefusal: Error, CustomStringConvertible, RefusalError {
    public var description: String
    init(_ description: String) { self.description = description }
}
