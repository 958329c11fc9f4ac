// The input-line grammar lives in InputLines (a core module, compiled for wasm too); files,
// records and streams here build on it, and importers of Script keep seeing it.
@_exported import InputLines
// A record's lines are made in RecordLines (core: the page's engine keeps its record with the
// same code); `RunRecord.Header` is its `RecordHeader`, seen by importers of Script too.
@_exported import RecordLines
