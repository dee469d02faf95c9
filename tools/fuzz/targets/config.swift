import DelayboxConfig

// Fuzz target: a config file as users write it (board, site and console files are YAML):
// libyaml's events to located nodes (`YAMLReader`), then the whole board schema and its
// checks, and the document written back as YAML and read again.
@testable import DelayboxConfigFile

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let document = try? YAMLReader.read(text, file: "fuzz.yaml") else { return 0 }
    _ = BoardConfig.read(document)
    let written = ConfigFile.yaml(document)
    // What the box writes (the console's `config save`) it reads back.
    precondition((try? YAMLReader.read(written, file: "written.yaml")) != nil, "unreadable: \(written)")
    return 0
}
