/// A Debian package version as the box hands it to apt (`delaybox=VERSION`): from the
/// console's `update VERSION`, from a group's canary over MQTT (any client that may
/// publish on the group's topics), from the installed package's version file. One rule
/// for all of them, so no door passes apt what another would refuse.
public enum PackageVersion {
    /// The longest version taken (bytes): make-deb's are under 50.
    public static let maximumLength = 64

    /// A digit first, then ASCII letters, digits and `.+~:-`, at most `maximumLength`.
    public static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("0"..."9").contains(first), text.utf8.count <= maximumLength
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".+~:-".unicodeScalars.contains($0))
        }
    }
}
