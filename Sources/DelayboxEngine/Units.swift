/// The shared vocabulary (instants, clocks, sleepers, audio formats) is the engine's too:
/// whoever imports the engine speaks it without a second import.
@_exported import DelayboxUnits
