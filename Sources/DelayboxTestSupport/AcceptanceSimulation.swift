/// The one-hour acceptance scenario as `delaybox simulate` takes it: a 60 s delay, outages
/// of 3 s at 10 min and 10 s at 20 min; its report loses exactly the outages' audio.
public enum AcceptanceSimulation {
    public static let arguments = [
        "simulate", "--duration", "3600", "--delay", "60",
        "--outage", "600:3", "--outage", "1200:10", "--json",
    ]
}
