import SceneModel

/// Drawing a frame into a recycled one by drawing again only where items changed.
///
/// A frame's items (`DrawnRegions.items`) say what its pixels are. The recycled frame first
/// catches up with the frame drawn last (the pixels where their items differ are copied from it),
/// then its items are compared with the snapshot's: each item that changed its look (or came or
/// went) makes its old and new rectangles change. Each changed rectangle is put back to the static
/// layer and every item over it drawn again there, in drawing order, clipped to it, at the
/// snapshot's values: so the frame is exactly what drawing it whole gives.
extension FrameRenderer {
    /// Draws `items` into `image` where they differ from what it holds.
    /// - Returns: false, leaving the pixels as they were, when the frame cannot be drawn so
    ///   (another renderer's or size, masks or overlays drawn, no items known) or when so much
    ///   changed that drawing it whole costs less.
    func drawChanges(_ items: [DrawnItem], into image: inout RGBImage) -> Bool {
        guard drawsChanges, staticMask == nil, image.mask == nil, overlays.subtracting(Self.overlaysInItems).isEmpty,
              image.width == width, image.height == height,
              let drawn = image.drawnRegions, drawn.background == background, var held = drawn.items else { return false }
        // The frame drawn last holds the newest items: catching up with it first means an item is
        // drawn again once in all the frames in flight, not once in each. Its pixels are copied
        // only once drawing the changes is decided.
        var catchUp: (from: RGBImage, rects: [PixelRect])?
        if let latest, let newest = latest.drawnRegions, newest.background == background, let newestItems = newest.items {
            catchUp = (latest, DrawnItem.changes(from: held, to: newestItems))
            held = newestItems
        }
        let changed = DrawnItem.changes(from: held, to: items, atMost: items.count / 2)
        guard let changed, let passes = plan(changed, over: items) else { return false }
        if let catchUp { Self.copy(catchUp.rects, from: catchUp.from.pixels, to: &image.pixels, width: width, valuesPerPixel: 3) }
        for pass in passes {
            Self.copy([pass.rect], from: staticLayer.pixels, to: &image.pixels, width: width, valuesPerPixel: 3)
            for k in pass.items { draw(items[k], into: &image, pen: .none, clip: pass.rect) }
        }
        image.drawnRegions = DrawnRegions(background: background, rects: items.compactMap { $0.rect }, items: items)
        return true
    }

    /// The rectangles to put back and draw again, each with the items over it in drawing order;
    /// nil when that covers more pixels than the items do (drawing the frame whole costs less).
    private func plan(_ rects: [PixelRect], over items: [DrawnItem]) -> [(rect: PixelRect, items: [Int])]? {
        var wholeCost = 0
        for item in items { if let rect = item.rect { wholeCost += rect.area } }
        var passes: [(rect: PixelRect, items: [Int])] = []
        passes.reserveCapacity(rects.count)
        var cost = 0
        for rect in rects {
            var over: [Int] = []
            cost += rect.area
            for k in items.indices {
                guard let itemRect = items[k].rect, let shared = itemRect.intersection(rect) else { continue }
                over.append(k)
                cost += shared.area
            }
            guard cost <= wholeCost else { return nil }
            passes.append((rect, over))
        }
        return passes
    }
}
