import DarkroomModel
import Foundation

/// Exports into a folder: each file written to a temporary name beside its place, synced, then
/// linked into place without replacing anything (a file of the photo's earlier export is renamed
/// over); the photo's record is appended to the folder's journal before its names appear, so a run
/// killed halfway leaves no partial file and the next run redoes the photo under the same names.
final class FolderTarget: ExportTarget {
    let folder: URL
    private(set) var records: [String: ExportRecord]
    private(set) var existingNames: Set<String>
    var scratch: URL { folder }
    private var journal: Int32 = -1

    /// Opens (making when missing) the folder, reads its journal and removes what a killed export left.
    init(folder: URL) throws {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportStop(path: folder.path, reason: "cannot make the folder: \(Self.reason(error))")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for leftover in names where leftover.contains(TemporaryName.marker) {
            unlink(folder.appendingPathComponent(leftover).path)
        }
        existingNames = Set(names.filter { !$0.contains(TemporaryName.marker) && $0 != ExportRecord.name })
        let journalData = (try? Data(contentsOf: folder.appendingPathComponent(ExportRecord.name))) ?? Data()
        records = ExportRecord.read(journalData)
    }

    deinit { if journal >= 0 { close(journal) } }

    func isPresent(_ record: ExportRecord) -> Bool {
        record.files.allSatisfy { FileInfo(path: folder.appendingPathComponent($0).path)?.isRegularFile == true }
    }

    func begin(replacing subjects: Set<String>) throws {
        let path = folder.appendingPathComponent(ExportRecord.name).path
        journal = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard journal >= 0 else { throw Self.stop(path, "cannot open the export's record") }
    }

    func publish(_ files: [ExportedFile], record: ExportRecord) throws {
        let previous = Set(records[record.subject]?.files ?? [])
        var staged: [(temporary: URL, name: String)] = []
        defer { for file in staged { unlink(file.temporary.path) } }
        for file in files {
            staged.append((try stage(file), file.name))
        }
        // Recorded before the names appear: a run killed from here on is redone under the same names.
        try append(record)
        records[record.subject] = record
        for (temporary, name) in staged {
            let destination = folder.appendingPathComponent(name)
            if link(temporary.path, destination.path) != 0 {
                let code = errno
                guard code == EEXIST, previous.contains(name) else { throw Self.stop(destination.path, "cannot link into place", code) }
                guard rename(temporary.path, destination.path) == 0 else { throw Self.stop(destination.path, "cannot replace", errno) }
            }
            existingNames.insert(name)
        }
        // Files of the photo's earlier export that this one does not write again (another format).
        for stale in previous.subtracting(files.map(\.name)) {
            unlink(folder.appendingPathComponent(stale).path)
            existingNames.remove(stale)
        }
        syncFolder()
    }

    func finish() throws { syncFolder() }

    func abandon() {}

    // MARK: Writing

    /// Writes a file's bytes to a new temporary name in the folder and syncs it; a temporary render
    /// already in the folder is used as it is.
    private func stage(_ file: ExportedFile) throws -> URL {
        if case .file(let url, temporary: true) = file.content, url.deletingLastPathComponent().standardizedFileURL == folder.standardizedFileURL {
            try setModified(url, file.modified)
            return url
        }
        let temporary = TemporaryName.beside(file.name, in: folder)
        let output = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Self.stop(temporary.path, "cannot create a temporary file", errno) }
        var succeeded = false
        defer {
            close(output)
            if !succeeded { unlink(temporary.path) }
        }
        switch file.content {
        case .data(let data):
            try data.withUnsafeBytes { try Self.write(output, $0, path: temporary.path) }
        case .file(let source, let isTemporary):
            try copy(source, to: output, path: temporary.path)
            if isTemporary { unlink(source.path) }
        }
        guard fsync(output) == 0 else { throw Self.stop(temporary.path, "cannot sync", errno) }
        try setModified(temporary, file.modified)
        succeeded = true
        return temporary
    }

    private func copy(_ source: URL, to output: Int32, path: String) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ExportFileError(path: source.path, reason: "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ExportFileError(path: source.path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try Self.write(output, UnsafeRawBufferPointer(rebasing: buffer[..<count]), path: path)
        }
    }

    private func append(_ record: ExportRecord) throws {
        let path = folder.appendingPathComponent(ExportRecord.name).path
        try record.line.withUnsafeBytes { try Self.write(journal, $0, path: path) }
        guard fsync(journal) == 0 else { throw Self.stop(path, "cannot sync", errno) }
    }

    private func setModified(_ url: URL, _ date: Date) throws {
        try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    private func syncFolder() {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw stop(path, "cannot write", errno)
            }
            done += written
        }
    }

    /// The stop for a failed system call on the destination (a full disk names itself).
    static func stop(_ path: String, _ action: String, _ code: Int32 = errno) -> ExportStop {
        if code == ENOSPC || code == EDQUOT {
            return ExportStop(path: path, reason: "disk full (\(code == ENOSPC ? "ENOSPC" : "EDQUOT")): the export stopped")
        }
        return ExportStop(path: path, reason: "\(action): \(String(cString: strerror(code)))")
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// A file of one photo that cannot be exported (its library file is missing or damaged): that
/// photo fails, the others go on.
struct ExportFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}
