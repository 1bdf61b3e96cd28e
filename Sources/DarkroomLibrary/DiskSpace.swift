import Foundation
import SystemPackage

/// A system call on the library that failed, with its `errno` (so callers test the code, not the text).
package struct SystemCallError: Error, CustomStringConvertible {
    /// What was being done (`cannot publish Photos/2024/03/x.heic`).
    package let action: String
    package let errno: Errno

    /// The error for the `errno` the last system call left.
    package static func last(_ action: String) -> SystemCallError {
        SystemCallError(action: action, errno: Errno(rawValue: Foundation.errno))
    }

    package var description: String { "\(action): \(String(cString: strerror(errno.rawValue)))" }
}

/// An error that can say whether it means the storage is full (a catalog's database error, say).
public protocol StorageFullReporting: Error {
    /// Whether the error means there is no room left (SQLite's `SQLITE_FULL`).
    var meansStorageIsFull: Bool { get }
}

/// Tells a full disk from other failures, so a run stops at once instead of failing every later photo.
package enum DiskSpace {
    /// Below this many free bytes the library's filesystem counts as full: no photo's outputs fit.
    package static let lowWater: UInt64 = 16 << 20

    /// Whether `error` means the library's disk is full: a system call's `ENOSPC` or `EDQUOT`, a
    /// catalog error that says so (SQLite's `SQLITE_FULL`), or (for errors the native libraries only
    /// give as text) a filesystem with less than `lowWater` bytes left.
    package static func isFull(_ error: Error, library: URL) -> Bool {
        if let call = error as? SystemCallError, call.errno == .noSpace || call.errno == .diskQuotaExceeded { return true }
        if let storage = error as? StorageFullReporting, storage.meansStorageIsFull { return true }
        return freeBytes(library).map { $0 < lowWater } ?? false
    }

    /// The bytes an unprivileged process may still write on the filesystem holding `url`.
    package static func freeBytes(_ url: URL) -> UInt64? {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
