extension Duration {
    /// The duration in seconds, as the `TimeInterval`s of Foundation's waits and sleeps take it.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
