// The input-line grammar lives in InputLines (a core module, compiled for wasm too); files,
// records and streams here build on it, and importers of Script keep seeing it.
@_exported import InputLines
