extension BuiltInTemplate {
    /// `film-strip`: frames on a strip of film with sprocket holes and frame numbers.
    static let filmStrip = """
    # A strip of 35 mm film: 3:2 frames in one line (across a wide canvas, down a tall one), sprocket
    # holes in the bands either side, a frame number under each frame.
    name: film-strip
    summary: A horizontal or vertical strip of film with sprocket holes and frame numbers.
    background: "#d9d4ca"
    margin: 0.04
    photos: 4
    grid: { single-line: true, gutter: 0.02 }
    cell-aspect: 1.5
    film: { colour: "#161412", holes: "#efeadf", band: 0.17, numbers: "{n}", number-colour: "#eba032" }
    captions:
      - { text: "{title}", band: bottom, height: 0.08, size: 0.45, colour: "#2a2724", font: "DejaVu Sans Mono Bold" }
    """
}
