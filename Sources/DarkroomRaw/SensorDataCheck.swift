internal import CLibRaw

/// Looks at unpacked sensor data for the signs of a file whose pixels are missing: LibRaw 0.20's
/// lossless-JPEG (DNG) and Panasonic decoders, among others, return success with zeroed pixels when
/// the data is cut out or cut short.
///
/// It samples the visible area in horizontal bands. A real exposure is never exactly zero over a
/// whole band: even a black frame has read noise (and a black level, where the camera keeps it).
struct SensorDataCheck {
    let handle: UnsafeMutablePointer<libraw_data_t>

    /// How many horizontal bands the visible area is cut into, and samples taken in each.
    static let bands = 64
    static let rowsPerBand = 4
    static let columnsPerRow = 128

    /// The fraction of non-zero samples under which the data counts as absent.
    static let minimumNonZeroFraction = 0.01

    func verify(path: String) throws {
        let sizes = handle.pointee.rawdata.sizes
        let top = Int(sizes.top_margin), left = Int(sizes.left_margin)
        let width = min(Int(sizes.width), Int(sizes.raw_width) - left)
        let height = min(Int(sizes.height), Int(sizes.raw_height) - top)
        guard width > 0, height > 0, darkroom_libraw_raw_sample(handle, Int32(top), Int32(left)) >= 0 else { return }

        var nonZeroPerBand = [Int](repeating: 0, count: Self.bands)
        var samples = 0
        for band in 0..<Self.bands {
            for step in 0..<Self.rowsPerBand {
                let row = top + min(height - 1, (band * Self.rowsPerBand + step) * height / (Self.bands * Self.rowsPerBand))
                for index in 0..<Self.columnsPerRow {
                    let column = left + min(width - 1, index * width / Self.columnsPerRow)
                    samples += 1
                    if darkroom_libraw_raw_sample(handle, Int32(row), Int32(column)) > 0 { nonZeroPerBand[band] += 1 }
                }
            }
        }
        let nonZero = nonZeroPerBand.reduce(0, +)
        if Double(nonZero) < Double(samples) * Self.minimumNonZeroFraction {
            throw RawError(path: path, reason: .imageDataMissing("the sensor data is empty (\(nonZero) of \(samples) sampled values are not zero)"))
        }
        let emptyTail = nonZeroPerBand.reversed().prefix { $0 == 0 }.count
        if emptyTail > 0 {
            let percent = 100 - emptyTail * 100 / Self.bands
            throw RawError(path: path, reason: .imageDataMissing("the sensor data stops about \(percent)% of the way down the picture"))
        }
    }
}
