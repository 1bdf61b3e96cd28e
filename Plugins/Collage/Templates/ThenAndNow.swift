extension BuiltInTemplate {
    /// `then-and-now`: two photos of the same subject, labelled with their dates.
    static let thenAndNow = """
    # Two photos, side by side on a wide or square canvas and stacked on a tall one, each labelled
    # with its capture date. Which two: the stage's `pairing` option.
    name: then-and-now
    summary: Two photos side by side or stacked, labelled with their capture dates (then and now).
    background: "#121212"
    margin: 0.02
    pick: pair
    grid: { rows: auto, columns: auto, gutter: 0.01 }
    label:
      texts: ["Then · {date}", "Now · {date}"]
      position: over-bottom
      size: 0.05
      colour: "#ffffff"
      band: "#00000088"
      font: "DejaVu Sans Bold"
    captions:
      - { text: "{title}", band: top, height: 0.08, size: 0.5, colour: "#f2f2f2", font: "DejaVu Sans Bold" }
    """
}
