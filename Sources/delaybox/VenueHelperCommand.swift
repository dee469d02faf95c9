import ArgumentParser
import DelayboxVenue

/// `delaybox venue-helper`: root's side of a venue, run by delaybox-venue.service when the
/// service leaves a request (delaybox-venue.path): serves it and says what it did, for the
/// journal (docs/mqtt.md, "A venue from the page"; `VenueHelper`).
struct VenueHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "venue-helper",
        abstract: "Carry out the venue change the service asked for (root; run by delaybox-venue.service).")

    @Option(name: .customLong("runtime-dir"), help: "The service's runtime directory, where it asks.")
    var runtimeDirectory = "/run/delaybox"

    func run() throws {
        let helper = VenueHelper(runtimeDirectory: runtimeDirectory)
        print(helper.serve() ?? "no venue request waits in \(runtimeDirectory)")
    }
}
