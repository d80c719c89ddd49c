using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.TestSupport;
using Polly;

namespace OrderDistribution.Storage.Tests;

/// <summary>
/// What <see cref="StorageExtensions.AddOrderStorage"/> registers is enough on its own: any host that adds storage (the
/// receiver, the load tool's in-process trio) gets one pipeline whose calls at once are the app's bound.
/// </summary>
public sealed class StorageExtensionsTests
{
    [Fact]
    public async Task The_storage_pipeline_needs_nothing_else_registered_and_runs_the_apps_bound_of_calls_at_once()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new("Storage:ConnectionString", "UseDevelopmentStorage=true")])
            .Build();
        await using var services = new ServiceCollection()
            .AddSingleton<IConfiguration>(configuration)
            .AddLogging()
            .AddOrderStorage(_ => 2)
            .BuildServiceProvider();
        var pipeline = services.GetRequiredKeyedService<ResiliencePipeline>(StorageResilience.Key);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var entered = 0;

        var calls = Enumerable.Range(0, 3).Select(_ => pipeline.ExecuteAsync(async _ =>
        {
            Interlocked.Increment(ref entered);
            await release.Task;
        }, TestContext.Current.CancellationToken).AsTask()).ToList();
        await Eventually.TrueAsync(() => Volatile.Read(ref entered) == 2, TimeSpan.FromSeconds(10));
        await Task.Delay(200, TestContext.Current.CancellationToken);

        Assert.Equal(2, Volatile.Read(ref entered));
        release.SetResult();
        await Task.WhenAll(calls);
        Assert.Equal(3, entered);
    }
}
