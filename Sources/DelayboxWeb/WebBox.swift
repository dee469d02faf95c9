import DelayboxConsole

/// What the web door needs of the box: its console language's answers (the playout
/// thread's), and where the web password's hash is kept and how one is made (libcrypt,
/// in the adapter).
public protocol WebBox: Sendable {
    /// The playout thread's reply to `request`; nil when it did not answer within its
    /// patience (`ConsoleRequest.patienceSeconds`).
    func ask(_ request: ConsoleRequest) -> ConsoleReply?
}

public protocol PasswordStore: Sendable {
    /// The stored hash; nil while no password is set.
    func storedHash() -> String?
    /// A new hash of `password` (a fresh salt); nil if the library failed.
    func makeHash(_ password: String) -> String?
    /// Whether `password` is the one `hash` was made from.
    func matches(_ password: String, hash: String) -> Bool
    /// Keeps `hash` (atomically, readable by the box alone); the error's words if it could not.
    func store(hash: String) -> String?
    /// Forgets the hash (no password set); the error's words if it could not.
    func remove() -> String?
    /// Why `password` is too easy to guess (a dictionary word, a common password), or nil.
    func weakness(of password: String) -> String?
}
