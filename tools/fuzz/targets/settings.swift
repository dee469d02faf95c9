// Fuzz target: the settings file (`state.json`): what a power cut, a full card or a hand
// edit can leave there, read back as settings or refused with a reason.
import DelayboxConfig
import DelayboxUnits
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if case .success(let settings) = Settings.decode(bytes, maxDelay: .minutes(30)) {
        precondition(
            (TimeAmount.zero...TimeAmount.minutes(30)).contains(settings.delay) && (0...100).contains(settings.volume),
            "\(settings)")
    }
    return 0
}
