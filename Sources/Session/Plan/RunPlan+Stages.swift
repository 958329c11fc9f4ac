extension RunPlan {
    /// Every kind of stage a plan can ask for, in the order they are set up: inputs are opened
    /// before any output is created, and the frame output before the data files and the record,
    /// so a refused output never truncates another. A new stage is its own file, a field of the
    /// plan that asks for it, and its line here.
    static var stageKinds: [any PlannedStage.Type] {
        [
            GravityInput.self,
            FrameOutput.self,
            DataStage.self,
            RecordStage.self,
            CheckStage.self,
            SyncTestStage.self,
            WorldEditStage.self,
            BranchStateStage.self,
            PeriodicStateStage.self,
            EndStateStage.self,
            HashTrailStage.self,
            LeftWorldStage.self,
            RefusedSpawnStage.self,
            LiveHistory.self,
        ]
    }
}
