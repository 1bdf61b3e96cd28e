import DarkroomCore
import DarkroomVips
import DarkroomOptions

extension StageOption where Value == Colour {
    /// What a colour option accepts, also in collage templates.
    public static var colourForms: String { "a colour #rgb, #rrggbb, #rrggbbaa or a name (white, black, grey...)" }

    /// A colour written `#rgb`, `#rrggbb`, `#rrggbbaa` or as a name.
    public static func colour(_ key: String, default defaultValue: Colour, shown defaultText: String, _ summary: String) -> StageOption {
        custom(key, as: String.self, default: defaultValue, shown: defaultText, accepts: colourForms, summary) { Colour(parsing: $0) }
    }
}

extension StageOption where Value == Colour? {
    /// A colour that is absent unless given (the stage then uses its own).
    public static func colour(_ key: String, _ summary: String) -> StageOption {
        custom(key, as: String.self, default: nil, shown: "", accepts: StageOption<Colour>.colourForms, summary) { text in
            guard let colour = Colour(parsing: text) else { return nil }
            return colour
        }
    }
}
