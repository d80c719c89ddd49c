namespace OrderDistribution.Trio.Tests;

/// <summary>
/// Each test runs a whole trio and Azurite on the machine's few cores: two at once starve each other's delivery
/// deadlines, so the trio tests run one after another.
/// </summary>
[CollectionDefinition(Name)]
public sealed class TrioRuns
{
    public const string Name = "Trio runs";
}
