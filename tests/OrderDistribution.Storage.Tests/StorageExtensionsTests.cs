using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
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
        await using var services = Services(("Storage:ConnectionString", "UseDevelopmentStorage=true"));
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

    [Fact]
    public void The_storage_settings_are_bound_from_the_Storage_section_and_refused_when_they_cannot_work()
    {
        using var bound = Services(("Storage:ConnectionString", "UseDevelopmentStorage=true"),
            ("Storage:RequestTimeout", "00:00:07"));
        using var unset = Services();

        var timeout = bound.GetRequiredService<IOptions<StorageOptions>>().Value.RequestTimeout;
        Assert.Equal(TimeSpan.FromSeconds(7), timeout);
        Assert.Throws<OptionsValidationException>(() => unset.GetRequiredService<IOptions<StorageOptions>>().Value);
    }

    private static ServiceProvider Services(params (string Key, string Value)[] settings) =>
        new ServiceCollection()
            .AddSingleton<IConfiguration>(new ConfigurationBuilder()
                .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value)))
                .Build())
            .AddLogging()
            .AddOrderStorage(_ => 2)
            .BuildServiceProvider();
}
