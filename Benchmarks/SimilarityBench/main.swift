// Measures DarkroomSimilarity for Benchmarks/similarity.sh (not shipped):
//
//   similarity-bench grouping [--photos N] [--brute N] [--runs R]
//       random fingerprints with planted near-duplicates: time to group N photos (index and
//       report), the planted pairs found, and the same grouping against comparing all pairs of
//       the first --brute photos
//   similarity-bench distances ORIGINALS VARIANTS SAME
//       ORIGINALS: "index<TAB>path" lines; VARIANTS: a folder of <index>.<kind>.jpg copies of them;
//       SAME: lines of corpus paths separated by " | " that are one photo. Prints the hash
//       distances of each kind of copy to its original and of every pair of different photos.
//   similarity-bench thumbnail-cost OUTPUT ROUNDS FILE...
//       the import's thumbnail of each FILE (200 px JPEG into OUTPUT) without and with the similarity
//       facts, interleaved ROUNDS times: CPU and wall seconds of each pass, the added CPU per photo.
//
// Figures are printed as "key: value" lines that the script reads.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else { return value }
    return number
}

switch arguments.first {
case "grouping":
    runGrouping(photos: option("--photos", default: 100_000), brute: option("--brute", default: 10_000), runs: option("--runs", default: 3))
case "distances" where arguments.count == 4:
    do {
        try runDistances(originals: arguments[1], variants: arguments[2], same: arguments[3])
    } catch {
        FileHandle.standardError.write(Data("similarity-bench: \(error)\n".utf8))
        exit(1)
    }
case "thumbnail-cost" where arguments.count >= 4 && Int(arguments[2]) != nil:
    do {
        try runThumbnailCost(files: Array(arguments[3...]), output: arguments[1], rounds: Int(arguments[2])!)
    } catch {
        FileHandle.standardError.write(Data("similarity-bench: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(Data(("usage: similarity-bench grouping [--photos N] [--brute N] [--runs R] | distances ORIGINALS VARIANTS SAME"
                                         + " | thumbnail-cost OUTPUT ROUNDS FILE...\n").utf8))
    exit(2)
}
