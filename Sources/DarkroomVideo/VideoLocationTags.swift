/// The metadata keys under which video files record where they were taken, as FFmpeg names them:
/// QuickTime's `©xyz` (FFmpeg's `location`, with its language variants `location-eng`), Apple's
/// `com.apple.quicktime.location.ISO6709` and the other `com.apple.quicktime.location.*` keys
/// (accuracy, name, body, role, date), Android's and others' `…location…` and `…gps…` keys.
public enum VideoLocationTags {
    /// Whether a container or stream tag records a place (matched ignoring case).
    public static func isLocation(_ key: String) -> Bool {
        let key = key.lowercased()
        return key.contains("location") || key.contains("gps") || key == "©xyz" || key == "xyz"
    }
}
