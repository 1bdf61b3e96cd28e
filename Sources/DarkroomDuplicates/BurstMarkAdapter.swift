import DarkroomModel
import DarkroomSimilarity

extension CataloguedPhoto {
    /// The engine's burst identifier and primary flag for the mark the catalog stores: the one place
    /// the catalog's `BurstMark` meets the engine's `MakerBurstID`.
    static func engineBurst(_ mark: BurstMark?) -> (id: MakerBurstID?, isPrimary: Bool) {
        guard let mark else { return (nil, false) }
        let source: MakerBurstID.Source = switch mark.source {
        case .apple: .apple
        case .google: .google
        }
        return (MakerBurstID(source: source, value: mark.identifier), mark.isPrimary)
    }
}
