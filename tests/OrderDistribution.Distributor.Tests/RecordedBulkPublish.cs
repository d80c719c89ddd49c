using System.Collections.Concurrent;
using Dapr;
using Dapr.Client;
using Grpc.Core;
using NSubstitute;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Distributor.Tests;

/// <summary>One bulk publish the distributor made: the topic, its metadata and the payloads, in order.</summary>
public sealed record RecordedBulkPublish(string Topic, IReadOnlyDictionary<string, string> Metadata, IReadOnlyList<byte[]> Payloads);
