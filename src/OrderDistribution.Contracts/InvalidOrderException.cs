namespace OrderDistribution.Contracts;

/// <summary>What was delivered is not a valid order; the message says why.</summary>
public sealed class InvalidOrderException(string message) : Exception(message);
