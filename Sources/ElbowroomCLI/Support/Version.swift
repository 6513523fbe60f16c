public enum Version {
    public static let current = "0.1.0"
}
