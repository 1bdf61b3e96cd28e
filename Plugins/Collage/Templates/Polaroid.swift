extension BuiltInTemplate {
    /// `polaroid`: instant prints with a caption strip, turned a little and overlapping.
    static let polaroid = """
    # Instant prints: white frames with a caption strip, slightly turned and overlapping.
    name: polaroid
    summary: Photos in white frames with a date strip, slightly turned and overlapping, on a warm background.
    background: "#e3dacb"
    margin: 0.05
    # A print is 88 x 107 mm: each box holds the largest print of that shape, centred.
    cell-aspect: 0.82
    # The top row is drawn last, so its prints lie over the bottom row's and every date strip shows.
    cells:
      - { x: 0.00, y: 0.00, width: 0.54, height: 0.52, rotation: -5, layer: 1 }
      - { x: 0.46, y: 0.03, width: 0.54, height: 0.52, rotation: 4, layer: 1 }
      - { x: 0.02, y: 0.47, width: 0.54, height: 0.52, rotation: 3 }
      - { x: 0.45, y: 0.46, width: 0.54, height: 0.52, rotation: -3 }
    frame: { colour: "#fbfaf6", border: 0.055, strip: 0.17, shadow: 0.025 }
    label: { text: "{date}", position: strip, size: 0.065, colour: "#3b3833", font: "DejaVu Serif Italic" }
    captions:
      - { text: "{title}", band: bottom, height: 0.09, size: 0.5, colour: "#3b3833", font: "DejaVu Serif Bold" }
    """
}

/// The YAML text of the built-in templates (one file each), decoded like users' template files.
enum BuiltInTemplate {}
