import SceneModel

/// Drawing a frame into a recycled one by drawing again only where items changed.
///
/// A frame's items (`DrawnRegions.items`) say what its pixels are. The recycled frame first
/// catches up with the frame drawn last (the pixels where their items differ are copied from it),
/// then each item is compared with the snapshot's: one that changed its look gets its old and new
/// rectangles drawn again. A crate that moved less than its stillness (`CrateStillness`: by then
/// none of its pixels can change) keeps its old record and is not a change. Each changed
/// rectangle is put back to the static layer and every item touching it is drawn again there in
/// drawing order, clipped to it, at the snapshot's values: so the frame is exactly what drawing
/// it whole gives.
extension FrameRenderer {
    /// Draws `items` into `image` where they differ from what it holds.
    /// - Returns: false, leaving the pixels as they were (or as the last frame drawn), when the
    ///   frame cannot be drawn so (another renderer's or size, masks or overlays drawn, no items
    ///   known) or when so much changed that drawing it whole is cheaper.
    func drawChanges(_ items: [DrawnItem], into image: inout RGBImage) -> Bool {
        guard drawsChanges, staticMask == nil, image.mask == nil, overlays.subtracting(Self.overlaysInItems).isEmpty,
              image.width == width, image.height == height,
              let drawn = image.drawnRegions, drawn.background == background, var held = drawn.items else { return false }
        // The frame drawn last holds the newest records: catching up with it first means an item
        // is drawn again once in all the frames in flight, not once in each.
        if let latest, let newest = latest.drawnRegions, newest.background == background, let newestItems = newest.items {
            Self.copy(DrawnItem.changes(from: held, to: newestItems), from: latest.pixels, to: &image.pixels, width: width, valuesPerPixel: 3)
            held = newestItems
            image.drawnRegions = newest
        }
        var records = items
        var changed: [PixelRect] = []
        // For items kept from `held`: how far they moved since (0: not at all); nil: drawn anew.
        var moved = [Double?](repeating: nil, count: items.count)
        var i = 0
        for j in items.indices {
            while i < held.count, held[i].key < items[j].key {
                if let rect = held[i].rect { changed.append(rect) }
                i += 1
            }
            guard i < held.count, held[i].key == items[j].key else {
                if let rect = items[j].rect { changed.append(rect) }
                continue
            }
            if held[i].look == items[j].look {
                (records[j], moved[j]) = (held[i], 0)
            } else if let motion = motion(from: held[i], to: items[j]), motion < held[i].stillness {
                (records[j], moved[j]) = (held[i], motion)
                changeCounts.keptCrates += 1
            } else if let rect = held[i].rect.map({ old in items[j].rect.map { old.union($0) } ?? old }) ?? items[j].rect {
                changed.append(rect)
            }
            i += 1
        }
        for stale in held[i...] { if let rect = stale.rect { changed.append(rect) } }
        // Each changed rectangle is put back and the items over it drawn again there: when that
        // covers more pixels than the items do, drawing the frame whole costs less.
        var passes: [(rect: PixelRect, items: [Int])] = []
        var cost = 0, wholeCost = 0
        for item in items { if let rect = item.rect { wholeCost += rect.area } }
        for rect in changed {
            var over: [Int] = []
            cost += rect.area
            for k in items.indices {
                guard let itemRect = items[k].rect, let shared = itemRect.intersection(rect) else { continue }
                over.append(k)
                cost += shared.area
            }
            guard cost <= wholeCost else { return false }
            passes.append((rect, over))
        }
        var stillness = [Double](repeating: .infinity, count: items.count)
        var touched = [Bool](repeating: false, count: items.count)
        for pass in passes {
            Self.copy([pass.rect], from: staticLayer.pixels, to: &image.pixels, width: width, valuesPerPixel: 3)
            for k in pass.items {
                draw(items[k], into: &image, pen: .none, clip: pass.rect, stillness: &stillness[k])
                touched[k] = true
            }
        }
        for k in records.indices {
            if let motion = moved[k] {
                // Kept, and drawn again in part at the new values: its other pixels are those the
                // new values give too, while it moves no further than its stillness left over.
                guard touched[k] else { continue }
                let left = records[k].stillness - motion
                records[k] = items[k]
                records[k].stillness = min(stillness[k], left)
            } else {
                records[k].stillness = touched[k] ? stillness[k] : 0
            }
        }
        image.drawnRegions = DrawnRegions(background: background, rects: records.compactMap(\.rect), items: records)
        return true
    }

    /// How far the crate coordinates of a crate's pixels moved between two looks (`CrateStillness`);
    /// nil for anything but a crate in the crate look keeping its colour.
    private func motion(from old: DrawnItem, to new: DrawnItem) -> Double? {
        guard look == .crate, case let .box(size)? = new.shape, case let .body(a) = old.look, case let .body(b) = new.look,
              a.color == b.color, a.asleep == b.asleep else { return nil }
        // Pixels are visited up to about half a pixel beyond the sides.
        let reach = (size.x * viewport.scale / 2 + 1, size.y * viewport.scale / 2 + 1)
        return CrateStillness.motion(from: (viewport.imagePoint(a.position), a.angle), to: (viewport.imagePoint(b.position), b.angle),
                                     reach: (reach.0 * reach.0 + reach.1 * reach.1).squareRoot())
    }
}
