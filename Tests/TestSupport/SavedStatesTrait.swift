import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only where states can be saved (CrateDrop's Chipmunk, the portable
    /// backend). On Debian's libchipmunk7, which saves none, it is reported as skipped, with this
    /// reason, rather than passing having checked nothing.
    /// - Parameter available: whether the library under test saves states: `World.canSaveState`
    ///   in the test's process, `SavedStateCommandTests.portable` for the built `cratedrop`.
    public static func needsSavedStates(_ available: @autoclosure @escaping @Sendable () -> Bool,
                                        sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        .enabled(if: available(), "saved states need CrateDrop's Chipmunk (the portable backend); Debian's libchipmunk7 has none",
                 sourceLocation: sourceLocation)
    }
}
