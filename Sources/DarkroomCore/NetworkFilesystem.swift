import Foundation

/// Recognises network and cluster filesystems, where SQLite must not be used.
public enum NetworkFilesystem {
    /// Filesystem types (as `/proc/self/mounts` names them) that are shared over a network.
    static let networkTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "9p", "ceph", "lustre", "gfs2", "ocfs2", "gpfs",
        "beegfs", "glusterfs", "fuse.glusterfs", "fuse.sshfs", "fuse.s3fs", "fuse.gcsfuse", "fuse.cephfs", "fuse.juicefs",
    ]

    /// The network filesystem `path` is on (`nfs4`, `cifs`…), or nil for a local one.
    /// A test may pretend a path is remote with `DARKROOM_PRETEND_NETWORK_FS=<type>`.
    public static func kind(of path: String) -> String? {
        if let pretend = ProcessInfo.processInfo.environment["DARKROOM_PRETEND_NETWORK_FS"], !pretend.isEmpty { return pretend }
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        let type = filesystemType(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mounts: mounts)
        return type.flatMap { networkTypes.contains($0) ? $0 : nil }
    }

    /// The type of the filesystem mounted deepest above `path`, from the text of `/proc/self/mounts`.
    static func filesystemType(of path: String, mounts: String) -> String? {
        var best: (point: String, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // Spaces and other characters in mount points are written as octal escapes (\040).
            let point = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
            let inside = point == "/" || path == point || path.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
        }
        return best?.type
    }
}
