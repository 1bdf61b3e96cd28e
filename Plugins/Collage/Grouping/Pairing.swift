import DarkroomCore
import Foundation

extension Collage.Pairing {
    /// The two photos of a then-and-now collage from date-ordered `photos`, or why there are none.
    func pick(from photos: [ItemRecord]) -> Result<[ItemRecord], PairingProblem> {
        let dated = photos.filter { $0.captureDate != nil }
        guard dated.count >= 2 else {
            return .failure(PairingProblem("then-and-now needs two photos with capture dates, found \(dated.count)"))
        }
        switch self {
        case .earliestLatest:
            return .success([dated.first!, dated.last!])
        case .yearApart:
            // The most recent photo that has a photo from the same calendar day a year before.
            for now in dated.reversed() {
                let day = now.captureDate!.local
                if let then = dated.first(where: {
                    let d = $0.captureDate!.local
                    return d.year == day.year - 1 && d.month == day.month && d.day == day.day
                }) {
                    return .success([then, now])
                }
            }
            return .failure(PairingProblem("pairing year-apart found no two photos taken on the same day a year apart"))
        }
    }
}

/// Why a group has no then-and-now pair.
struct PairingProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
