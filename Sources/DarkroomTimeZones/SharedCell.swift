/// A 1-degree cell that several zones share, read straight from the payload: for each zone, a
/// bounding box and the rings of its polygons inside the cell, in steps from the cell's south-west
/// corner. A point lies in the zone whose rings a ray from it crosses an odd number of times.
struct SharedCell {
    /// The whole payload (shared, not copied) and where this cell's entry starts.
    let payload: [UInt8]
    let offset: Int

    /// One zone's part of the entry.
    struct ZoneEntry {
        let zone: Int
        let minX: Int, minY: Int, maxX: Int, maxY: Int
        /// Where the zone's rings lie in the payload.
        let rings: Range<Int>

        func boxContains(x: Double, y: Double) -> Bool {
            x >= Double(minX) && x <= Double(maxX) && y >= Double(minY) && y <= Double(maxY)
        }
    }

    /// The zone that contains the point (`x`, `y` in steps). A point within a few metres of a
    /// border can fall between two zones' simplified polygons, or inside both; it then gets the
    /// first zone that contains it, or the nearest one, `xScale` (the cosine of the latitude)
    /// making east-west steps as long as north-south ones.
    func zone(atX x: Double, y: Double, xScale: Double) -> Int? {
        var found: Int?
        forEachZone { entry in
            guard entry.boxContains(x: x, y: y) else { return true }
            var inside = false
            forEachEdge(of: entry) { x1, y1, x2, y2 in
                if (y1 > y) != (y2 > y), x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) { inside.toggle() }
            }
            if inside { found = entry.zone }
            return !inside
        }
        return found ?? nearestZone(toX: x, y: y, xScale: xScale)
    }

    /// The zone whose rings pass nearest to the point.
    private func nearestZone(toX x: Double, y: Double, xScale: Double) -> Int? {
        var best: (zone: Int, distance: Double)?
        forEachZone { entry in
            var nearest = Double.infinity
            forEachEdge(of: entry) { x1, y1, x2, y2 in
                nearest = min(nearest, squaredDistance(fromX: x, y: y, toSegment: x1, y1, x2, y2, xScale: xScale))
            }
            if nearest < (best?.distance ?? .infinity) { best = (entry.zone, nearest) }
            return true
        }
        return best?.zone
    }

    /// What is wrong with the entry, or nil: every zone number below `zoneCount`, every box and
    /// vertex within the cell (0...`quantum`), every ring of three or more vertices, no byte left over.
    func defect(zoneCount: Int, quantum: Int) -> String? {
        var problem: String?
        var zones = 0
        let complete = forEachZone { entry in
            zones += 1
            let cell = 0...quantum
            guard entry.zone < zoneCount else { problem = "zone \(entry.zone) out of range"; return false }
            guard [entry.minX, entry.minY, entry.maxX, entry.maxY].allSatisfy(cell.contains) else {
                problem = "zone \(entry.zone): bounding box outside the cell"
                return false
            }
            var vertexInBox = true
            let decoded = forEachEdge(of: entry) { x1, y1, _, _ in
                vertexInBox = vertexInBox && x1 >= Double(entry.minX) && x1 <= Double(entry.maxX)
                    && y1 >= Double(entry.minY) && y1 <= Double(entry.maxY)
            }
            if !decoded || !vertexInBox {
                problem = "zone \(entry.zone): " + (decoded ? "a vertex outside its bounding box" : "damaged rings")
                return false
            }
            return true
        }
        if let problem { return problem }
        return complete && zones >= 2 ? nil : "damaged entry at payload offset \(offset)"
    }

    /// Calls `body` with each zone's entry, in stored order, while it returns true. Returns false
    /// when the entry's bytes are damaged.
    @discardableResult
    func forEachZone(_ body: (ZoneEntry) -> Bool) -> Bool {
        var cursor = ByteCursor(payload, at: offset)
        guard let count = cursor.varint() else { return false }
        for _ in 0..<count {
            guard let zone = cursor.varint(), let minX = cursor.varint(), let minY = cursor.varint(),
                  let maxX = cursor.varint(), let maxY = cursor.varint(), let length = cursor.varint(),
                  cursor.take(length) != nil
            else { return false }
            let entry = ZoneEntry(zone: zone, minX: minX, minY: minY, maxX: maxX, maxY: maxY,
                                  rings: cursor.position - length..<cursor.position)
            if !body(entry) { return true }
        }
        return true
    }

    /// Calls `body` with every edge (x1, y1, x2, y2 in steps) of the zone's rings, each ring closed
    /// by an edge from its last vertex to its first. Returns false when the rings' bytes are damaged.
    @discardableResult
    func forEachEdge(of entry: ZoneEntry, _ body: (Double, Double, Double, Double) -> Void) -> Bool {
        var cursor = ByteCursor(payload, at: entry.rings.lowerBound, end: entry.rings.upperBound)
        guard let ringCount = cursor.varint(), ringCount > 0 else { return false }
        for _ in 0..<ringCount {
            guard let vertexCount = cursor.varint(), vertexCount >= 3 else { return false }
            var x = 0, y = 0, firstX = 0, firstY = 0
            for index in 0..<vertexCount {
                guard let dx = cursor.signedVarint(), let dy = cursor.signedVarint() else { return false }
                let nextX = x &+ dx, nextY = y &+ dy
                if index == 0 {
                    (firstX, firstY) = (nextX, nextY)
                } else {
                    body(Double(x), Double(y), Double(nextX), Double(nextY))
                }
                (x, y) = (nextX, nextY)
            }
            body(Double(x), Double(y), Double(firstX), Double(firstY))
        }
        return cursor.position == cursor.end
    }
}

/// The squared distance from a point to a segment, east-west lengths multiplied by `xScale`.
private func squaredDistance(
    fromX x: Double, y: Double, toSegment x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, xScale: Double
) -> Double {
    let (ax, ay) = ((x1 - x) * xScale, y1 - y)
    let (bx, by) = ((x2 - x) * xScale, y2 - y)
    let (dx, dy) = (bx - ax, by - ay)
    let length = dx * dx + dy * dy
    let t = length > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length)) : 0
    let (px, py) = (ax + t * dx, ay + t * dy)
    return px * px + py * py
}
