namespace OrderDistribution.RealParts.Tests;

public enum RealPartsKind
{
    None,
    Containers,
    LocalProcesses,
}
