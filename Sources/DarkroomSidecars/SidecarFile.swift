import Foundation

/// Reads a sidecar whole, refusing files over a size limit before reading them (a `.json` or
/// `.xmp` of gigabytes is not a sidecar, and must not be loaded into memory).
enum SidecarFile {
    /// The bytes of `url`, or an error naming the file when it cannot be read or exceeds `limit` bytes.
    static func read(_ url: URL, limit: Int) throws -> Data {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw SidecarError(file: url.path, reason: "cannot be opened: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw SidecarError(file: url.path, reason: "larger than \(describe(bytes: limit)): not a sidecar") }
            return data
        } catch let error as SidecarError {
            throw error
        } catch {
            throw SidecarError(file: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// `parse` applied to the bytes of `url`; its `SidecarError`s are given the file's path.
    static func read<Result>(_ url: URL, limit: Int, as parse: (Data) throws -> Result) throws -> Result {
        let data = try read(url, limit: limit)
        do {
            return try parse(data)
        } catch var error as SidecarError {
            error.file = url.path
            throw error
        }
    }

    /// `1 MiB`, `16 MiB`, `512 KiB`.
    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
