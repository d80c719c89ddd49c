using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The hosts these tests start by the hundred read their settings files once, as the apps do: a watcher each would hold
/// one of Linux's 128 inotify instances per user for as long as the test program runs, and a program that runs the
/// tests again and again (Stryker's, once per mutant) would fail every later test for it.
/// </summary>
public sealed class EntryPointsHostTests
{
    [Fact]
    public async Task Neither_kind_of_entry_points_host_watches_a_settings_file()
    {
        await using var taking = await EntryPointsHost.StartAsync();
        await using var forwarding = await EntryPointsHost.ForwardingAsync(new Uri("http://127.0.0.1:1"));

        Assert.All(new[] { taking, forwarding }, host =>
        {
            var files = ((IConfigurationRoot)host.Services.GetRequiredService<IConfiguration>()).Providers
                .OfType<FileConfigurationProvider>().ToList();
            Assert.NotEmpty(files);
            Assert.All(files, file => Assert.False(file.Source.ReloadOnChange, $"{file.Source.Path} is watched"));
        });
    }
}
