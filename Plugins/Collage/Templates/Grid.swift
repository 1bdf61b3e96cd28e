extension BuiltInTemplate {
    /// `grid`: equal cells in rows and columns (the `grid` option picks 2x2, 3x3...; auto by default).
    static let grid = """
    # Equal photos in rows and columns with gutters. rows/columns: auto fits the photo count to the
    # canvas; a last row that is not full is centred.
    name: grid
    summary: Rows and columns of equal photos with gutters (2x2, 3x3, or automatic for the photo count).
    background: "#ffffff"
    margin: 0.03
    grid: { rows: auto, columns: auto, gutter: 0.012 }
    captions:
      - { text: "{title}", band: bottom, height: 0.08, size: 0.5, colour: "#222222", font: "DejaVu Sans Bold" }
    """
}
