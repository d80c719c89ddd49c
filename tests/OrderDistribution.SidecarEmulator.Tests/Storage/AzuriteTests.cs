using System.Diagnostics;
using System.Globalization;
using OrderDistribution.SidecarEmulator.Storage;

namespace OrderDistribution.SidecarEmulator.Tests.Storage;

/// <summary>Azurite's start (<see cref="Azurite"/>), with a program in its place that never listens.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class AzuriteTests : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("azurite-stand-in-");

    [Fact]
    public async Task An_Azurite_that_does_not_listen_in_time_is_stopped_not_left_running()
    {
        var pidFile = Path.Combine(_folder.FullName, "pid");
        var standIn = Path.Combine(_folder.FullName, "azurite-blob");
        await File.WriteAllTextAsync(standIn, $"#!/bin/sh\necho $$ > '{pidFile}'\nexec sleep 600\n");
        File.SetUnixFileMode(standIn, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        var failed = await Assert.ThrowsAsync<TimeoutException>(() =>
            Azurite.StartAsync(standIn, dataFolder: null, port: null, listenTimeout: TimeSpan.FromSeconds(2)));

        var pid = int.Parse((await File.ReadAllTextAsync(pidFile)).Trim(), CultureInfo.InvariantCulture);
        Assert.False(Runs(pid), $"the Azurite that did not listen still runs (pid {pid}): {failed.Message}");
    }

    private static bool Runs(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    public void Dispose() => _folder.Delete(recursive: true);
}
