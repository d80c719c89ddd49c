namespace OrderDistribution.RealParts.Tests;

/// <summary>Where a sidecar reaches the brokers, as host:port; the rendered components point there.</summary>
/// <param name="Redis">For <c>pubsub.redis</c>'s <c>redisHost</c>; null when no Redis was started.</param>
/// <param name="RabbitMq">For the host:port in <c>bindings.rabbitmq</c>'s <c>host</c> URI; null when no RabbitMQ was
/// started.</param>
public sealed record ComponentAddresses(string? Redis, string? RabbitMq);
