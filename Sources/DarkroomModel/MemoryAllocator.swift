internal import CLinux

/// The process's memory allocator, as every library in it resolves `malloc`: jemalloc, which the
/// `darkroom` executable links, or glibc's malloc (a program that links Darkroom's modules alone).
///
/// jemalloc is linked because a long run's heap fragments under glibc's: each photo's decode and
/// encode allocate and free tens of megabytes around small blocks that live on, and at 100,000
/// photos 12.8 % of a first import's CPU went to glibc's allocator (7.9 % at 2,000). With jemalloc
/// the first import of 100,000 took 13.4 ms of CPU a photo, no more than 10,000's 13.8 (glibc: 15.1
/// at 100,000), and its peak resident memory was 877 MB (glibc: 1,001).
package enum MemoryAllocator {
    /// jemalloc's version ("5.3.0") when it is the process's allocator; nil under glibc's malloc.
    package static let jemallocVersion: String? = darkroom_jemalloc_version().map { version in
        String(String(cString: version).prefix { $0 != "-" })
    }

    /// Its name and version, for the log of what the process started with.
    package static var description: String {
        guard let version = jemallocVersion else { return "glibc malloc" }
        return version.isEmpty ? "jemalloc" : "jemalloc \(version)"
    }
}
