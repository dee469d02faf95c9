// Fuzz target: a backup's file (`BoxBackup`), sent to the page by its owner — or, on a new
// box, by anyone on the LAN while its first password may be chosen: read as a backup or
// refused with where and why (`JSONSyntax` names the line of a syntax error).
import DelayboxConfig
import DelayboxJSON
import DelayboxUnits
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    if let syntax = JSONSyntax.firstError(in: text) { precondition(syntax.line >= 1 && syntax.column >= 1) }
    switch BoxBackup.read(text, maxDelay: .minutes(30)) {
    case .success(let backup):
        let settings = backup.settings
        precondition(
            (TimeAmount.zero...TimeAmount.minutes(30)).contains(settings.delay) && (0...100).contains(settings.volume),
            "\(settings)")
    case .failure(let problem):
        precondition(!problem.description.isEmpty)
    }
    return 0
}
