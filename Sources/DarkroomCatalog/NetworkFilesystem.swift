internal import CLinux
import DarkroomCore
import Foundation

/// Recognises network and cluster filesystems, where SQLite must not be used.
public enum NetworkFilesystem {
    /// Network filesystems by the magic number `statfs` gives in `f_type` (linux/magic.h and the
    /// filesystems' own headers).
    static let networkMagics: [Int64: String] = [
        0x6969: "nfs", 0x517B: "smbfs", 0xFF53_4D42: "cifs", 0xFE53_4D42: "smb2", 0x564C: "ncpfs",
        0x5346_414F: "afs", 0x6B41_4653: "afs", 0x0102_1997: "9p", 0x00C3_6400: "ceph", 0x0BD0_0BD0: "lustre",
        0x0116_1970: "gfs2", 0x7461_636F: "ocfs2", 0x4750_4653: "gpfs", 0x1983_0326: "beegfs",
    ]

    /// `f_type` of FUSE filesystems, whose kind only the mount table's subtype tells.
    static let fuseMagic: Int64 = 0x6573_5546

    /// FUSE filesystems (as `/proc/self/mounts` names them) that are shared over a network.
    static let networkFuseTypes: Set<String> = [
        "fuse.glusterfs", "fuse.sshfs", "fuse.s3fs", "fuse.gcsfuse", "fuse.cephfs", "fuse.juicefs", "fuse.rclone",
    ]

    /// The network filesystem `path` is on (`nfs`, `cifs`…), or nil for a local one, from `statfs`.
    public static func kind(of path: String) -> String? {
        var info = statfs()
        guard statfs(path, &info) == 0 else { return nil }
        let magic = Int64(truncatingIfNeeded: info.f_type) & 0xFFFF_FFFF
        if let name = networkMagics[magic] { return name }
        guard magic == fuseMagic, let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8),
              let type = filesystemType(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mounts: mounts) else { return nil }
        return networkFuseTypes.contains(type) ? type : nil
    }

    /// The type of the filesystem mounted deepest above `path`, from the text of `/proc/self/mounts`
    /// (for FUSE mounts, whose subtype `statfs` does not give).
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
