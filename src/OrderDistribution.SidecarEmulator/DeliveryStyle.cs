namespace OrderDistribution.SidecarEmulator;

/// <summary>How the emulator delivers a queue to its app: in bulk, one CloudEvent at a time, or as an input binding.</summary>
public enum DeliveryStyle
{
    Bulk,
    Single,
    Binding,
}
