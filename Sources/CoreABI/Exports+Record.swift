import RecordLines

// What the page downloads and what it takes back: its record and its state as the CLI's files
// (docs/serve.md, "The world in the page (WebAssembly)"), so `cratedrop replay --verify` checks a
// page's run and `cratedrop hash STATE` continues a page's state natively, and the page restores
// the CLI's.

/// The run's record (JSON Lines text) as the result: every line so far and an end line after the
/// last step taken; the world's record goes on. Refused (64) after a restore: a record's steps
/// count from the scene's start.
@_cdecl("cratedrop_world_record")
public func cratedropWorldRecord(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        return LastResult.set(try run.recordText())
    } catch {
        return LastResult.fail(error)
    }
}

/// The steps the record covers (where `cratedrop_world_record`'s end line is): the steps taken,
/// or fewer once the record has reached its bound (64 MiB beyond the scene, then it stops
/// growing); -1 when the world keeps no record (after a restore) or there is no such world.
@_cdecl("cratedrop_world_record_steps")
public func cratedropWorldRecordSteps(_ handle: Int32) -> Double {
    guard let text = Handles.run(handle)?.record.text else { return -1 }
    return Double(text.steps)
}

/// Stops keeping the world's record (Python's worlds keep none unless asked): its steps no longer
/// pay for the record's checkpoints; `cratedrop_world_record` then refuses (64). For good: a
/// record's lines must start at the scene's start.
@_cdecl("cratedrop_world_drop_record")
public func cratedropWorldDropRecord(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    run.dropRecord()
    return 0
}

/// Saves the world's state as a saved-state file (the CLI's `--save-state` file: CDSTATE, with
/// the scene and where it was made): its bytes are the result. `cratedrop_world_restore` takes
/// it back, as it takes `cratedrop_world_save`'s bytes.
@_cdecl("cratedrop_world_save_file")
public func cratedropWorldSaveFile(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        return LastResult.set(try run.saveFile())
    } catch {
        return LastResult.fail(error)
    }
}
