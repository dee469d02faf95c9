/// The version printed by `delaybox --version` and packaged by `deploy/`.
public enum DelayboxVersion {
    public static let string = "0.1.0"
}
