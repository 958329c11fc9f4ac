/// Chipmunk space settings, all off by default (the default tree index, no sleeping).
public struct SpaceOptions: Sendable, Equatable {
    /// Use Chipmunk's spatial hash instead of its bounding-box tree (`cpSpaceUseSpatialHash`).
    public var spatialHash: SpatialHash?
    /// Bodies at rest this long (seconds) fall asleep (`cpSpaceSetSleepTimeThreshold`); nil: never.
    public var sleepTimeThreshold: Double?

    public struct SpatialHash: Sendable, Equatable {
        /// Cell side in pixels; about the size of a typical crate works best.
        public var cellSize: Double
        /// Number of hash buckets; about the number of shapes works best.
        public var cells: Int

        public init(cellSize: Double, cells: Int) {
            self.cellSize = cellSize
            self.cells = cells
        }
    }

    public init(spatialHash: SpatialHash? = nil, sleepTimeThreshold: Double? = nil) {
        self.spatialHash = spatialHash
        self.sleepTimeThreshold = sleepTimeThreshold
    }
}

