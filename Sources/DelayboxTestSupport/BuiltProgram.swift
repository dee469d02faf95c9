import Foundation

/// The programs of this package that `swift build` left for the tests (`delaybox`,
/// `delayboxctl`, `delaybox-settings-writer`): the one place the tests find them.
public enum BuiltProgram {
    /// Where the debug build keeps its programs, under the package's `root`.
    public static func directory(root: URL) -> URL { root.appendingPathComponent(".build/debug") }

    /// The program `name` of the debug build under the package's `root`.
    public static func url(_ name: String, root: URL) -> URL { directory(root: root).appendingPathComponent(name) }
}
