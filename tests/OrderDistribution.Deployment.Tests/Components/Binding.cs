namespace OrderDistribution.Deployment.Tests;

internal sealed record Binding(string Name, string Direction, string Queue, string AppId);
