using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using OrderDistribution.SidecarEmulator.Hosting;

namespace OrderDistribution.SidecarEmulator.Tests.Hosting;

/// <summary>
/// The hosts a run starts by the dozen read their settings files once, as the apps do: a watcher each would take one
/// of Linux's 128 inotify instances per user, and the run's next host would fail to start.
/// </summary>
public sealed class SettingsFilesTests
{
    [Fact]
    public async Task An_app_the_emulator_hosts_and_its_loopback_servers_watch_no_settings_file()
    {
        await using var app = await AppHost.StartAsync(AppHost.Distributor,
            new AppHostOptions { Sidecar = new Uri("http://127.0.0.1:1") });
        await using var server = LoopbackServer.Create();

        Assert.All(new[] { app, server }, AssertNoFileWatched);
    }

    private static void AssertNoFileWatched(WebApplication host)
    {
        var files = ((IConfigurationRoot)host.Configuration).Providers.OfType<FileConfigurationProvider>().ToList();
        Assert.NotEmpty(files);
        Assert.All(files, file => Assert.False(file.Source.ReloadOnChange, $"{file.Source.Path} is watched"));
    }
}
