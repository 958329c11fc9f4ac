import SceneModel

extension SavedStateFile {
    /// The warning for a state saved in another determinism class than `thisClass`, the file named
    /// `name` in it and its own text escaped; nil for the same class. The CLI prints it on
    /// restoring such a file; the C ABI's restore returns it (docs/determinism.md).
    package func otherClassWarning(named name: String, thisClass: String) -> String? {
        guard determinismClass != thisClass else { return nil }
        return "\(TerminalText.escaped(name)) was saved in determinism class \(TerminalText.escaped(determinismClass)) "
            + "(\(TerminalText.escaped(backend)) backend, \(TerminalText.escaped(architecture))); this machine is class "
            + "\(thisClass): a continuation here will not match one made there"
    }
}
