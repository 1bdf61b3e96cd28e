import Foundation

/// A position on Earth, in degrees (WGS 84), with the altitude in metres when known.
public struct GeoLocation: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    /// Nil unless both coordinates are finite and in range (latitude -90...90, longitude -180...180).
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
    }
}

/// The facts of a video the catalog keeps: how long, how it is encoded, whether it is HDR.
public struct VideoFacts: Codable, Sendable, Hashable {
    /// HDR transfer functions a phone records.
    public enum Transfer: String, Codable, Sendable {
        /// Hybrid log-gamma (`arib-std-b67`): iPhone HDR video.
        case hlg
        /// Perceptual quantizer (`smpte2084`): HDR10, Dolby Vision base layers.
        case pq
    }

    /// Length in seconds.
    public var duration: Double
    /// The video codec's FFmpeg name (`h264`, `hevc`).
    public var codec: String
    /// Bits per sample of the video (8, 10).
    public var bitDepth: Int
    /// The HDR transfer, nil for SDR.
    public var hdrTransfer: Transfer?
    /// The audio codec's FFmpeg name (`aac`), nil without sound.
    public var audioCodec: String?

    public init(duration: Double, codec: String, bitDepth: Int, hdrTransfer: Transfer?, audioCodec: String?) {
        self.duration = duration
        self.codec = codec
        self.bitDepth = bitDepth
        self.hdrTransfer = hdrTransfer
        self.audioCodec = audioCodec
    }
}
