import Driver
import Physics

/// The physics world is what the fixed-step driver steps.
extension World: Simulation {}
