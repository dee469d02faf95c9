/// What a web password must be: 8 to 128 bytes of text without control characters. Long
/// enough that the login throttle leaves guessing hopeless, short enough that hashing it
/// costs a bounded time; and not one a dictionary guesses (`PasswordStore.weakness`).
public enum WebPassword {
    public static let lengthRange = 8...128

    /// Nil when `password` will do; otherwise what is wrong with it, in words the page shows.
    public static func problem(_ password: String) -> String? {
        let length = password.utf8.count
        if length < lengthRange.lowerBound {
            return "the password is too short: at least \(lengthRange.lowerBound) characters"
        }
        if length > lengthRange.upperBound {
            return "the password is too long: at most \(lengthRange.upperBound) bytes"
        }
        if password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the password holds a control character"
        }
        return nil
    }

    /// The words for a password the dictionary check refused (libpwquality's `reason`).
    public static func weak(_ reason: String) -> String {
        "the password is too easy to guess (\(reason)): a few unrelated words make a good one"
    }
}
