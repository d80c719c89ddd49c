namespace OrderDistribution.RealParts.Tests;

/// <summary>The back-end the real-parts tests run on, and the one line that says so or says why none.</summary>
public sealed record RealPartsChoice(RealPartsKind Kind, string Line);
