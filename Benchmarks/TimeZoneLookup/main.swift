// Measures DarkroomTimeZones for Benchmarks/timezones.sh (not shipped):
//
//   timezone-benchmark [--points N] [--map FILE]   load time, resident memory, cost of a lookup
//   timezone-benchmark lookup [--map FILE]         reads "latitude longitude" lines, prints each zone
//
// Figures are printed as "key: value" lines that the script reads.
import DarkroomTimeZones
import Foundation

/// A small seeded generator (SplitMix64), so every run measures the same points.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Points spread evenly over the sphere (not over the latitude-longitude rectangle).
func randomPoints(_ count: Int) -> [(latitude: Double, longitude: Double)] {
    var generator = SplitMix64(state: 12)
    return (0..<count).map { _ in
        (asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi, Double.random(in: -180..<180, using: &generator))
    }
}

/// A line of /proc/self/status in kilobytes (VmRSS, VmHWM).
func kilobytes(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func loadMap(_ arguments: [String]) -> TimeZoneMap {
    do {
        if let index = arguments.firstIndex(of: "--map"), index + 1 < arguments.count {
            return try TimeZoneMap(contentsOf: URL(fileURLWithPath: arguments[index + 1]))
        }
        return try TimeZoneMap.load()
    } catch {
        FileHandle.standardError.write(Data("timezone-benchmark: \(error)\n".utf8))
        exit(1)
    }
}

/// Answers "latitude longitude" lines on standard input, one zone (or "-") a line.
func answerLookups(_ map: TimeZoneMap) {
    var output = ""
    while let line = readLine() {
        let fields = line.split(separator: " ").compactMap { Double($0) }
        let zone = fields.count == 2 ? map.zoneIdentifier(latitude: fields[0], longitude: fields[1]) : nil
        output += (zone ?? "-") + "\n"
        if output.utf8.count > 1 << 16 { print(output, terminator: ""); output = "" }
    }
    print(output, terminator: "")
}

/// Prints the load time, the memory, and the cost of lookups over `count` random points.
func measure(_ arguments: [String], count: Int) {
    let residentBefore = kilobytes("VmRSS")
    var map: TimeZoneMap?
    let loadTime = nanoseconds { map = loadMap(arguments) }
    let residentAfter = kilobytes("VmRSS")
    guard let map else { return }
    print("data: \(map.dataVersion), \(map.zoneIdentifiers.count) zones")
    print("load_ms: \(String(format: "%.1f", loadTime / 1e6))")
    print("rss_before_kb: \(residentBefore)")
    print("rss_after_kb: \(residentAfter)")

    let points = randomPoints(count)
    var answers = [String?](repeating: nil, count: count)
    let total = nanoseconds {
        for (index, point) in points.enumerated() {
            answers[index] = map.zoneIdentifier(latitude: point.latitude, longitude: point.longitude)
        }
    }
    var each: [Double] = []
    var onLand: [Double] = []
    for (index, point) in points.enumerated() {
        var zone: String?
        let cost = nanoseconds { zone = map.zoneIdentifier(latitude: point.latitude, longitude: point.longitude) }
        precondition(zone == answers[index], "a lookup changed its answer")
        each.append(cost)
        if zone?.hasPrefix("Etc/") == false { onLand.append(cost) }
    }
    let timerCost = (0..<10_000).map { _ in nanoseconds {} }.sorted()[5_000]
    each.sort()
    onLand.sort()
    let zoneCost = (0..<2_000).map { index in
        nanoseconds { _ = TimeZone(identifier: map.zoneIdentifiers[index % map.zoneIdentifiers.count]) }
    }.sorted()
    print("points: \(count) (\(onLand.count) on land)")
    print("lookup_mean_ns: \(String(format: "%.0f", total / Double(count)))")
    print("lookup_median_ns: \(String(format: "%.0f", percentile(each, 0.5))) (timer alone \(String(format: "%.0f", timerCost)))")
    print("lookup_p99_ns: \(String(format: "%.0f", percentile(each, 0.99)))")
    print("lookup_max_ns: \(String(format: "%.0f", each.last ?? 0))")
    print("land_lookup_median_ns: \(String(format: "%.0f", percentile(onLand, 0.5)))")
    print("land_lookup_p99_ns: \(String(format: "%.0f", percentile(onLand, 0.99)))")
    print("foundation_timezone_median_ns: \(String(format: "%.0f", percentile(zoneCost, 0.5)))")
    print("rss_end_kb: \(kilobytes("VmRSS"))")
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "lookup" {
    answerLookups(loadMap(arguments))
} else {
    let count = arguments.firstIndex(of: "--points").flatMap { Int(arguments[$0 + 1]) } ?? 200_000
    measure(arguments, count: count)
}
