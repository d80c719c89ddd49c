using System.Diagnostics;
using OrderDistribution.TestSupport.Components;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// RabbitMQ as the local bindings model meets it: the vhost made by scripts/run-local.sh's own step
/// (<c>--rabbitmq-vhost</c>), and the settings of the components in components-bindings/.
/// </summary>
public static class LocalRabbitMq
{
    public const string ComponentsFolder = "components-bindings";

    /// <summary>
    /// Makes the vhost on <paramref name="rabbit"/> as the script's bindings start does: its own step
    /// (<c>scripts/run-local.sh --rabbitmq-vhost</c>), with a plain <c>rabbitmqctl</c> that reaches this node.
    /// </summary>
    /// <returns>What the step printed (its warnings).</returns>
    public static async Task<string> MakeVhostAsync(RabbitMqServer rabbit)
    {
        var start = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryRoot.Path,
        };
        start.ArgumentList.Add("scripts/run-local.sh");
        start.ArgumentList.Add("--rabbitmq-vhost");
        foreach (var (name, value) in rabbit.ShellEnvironment)
        {
            start.Environment[name] = value;
        }

        using var script = Process.Start(start)!;
        var output = script.StandardOutput.ReadToEndAsync();
        var error = script.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        await script.WaitForExitAsync(timeout.Token);
        var printed = await output + await error;
        if (script.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"scripts/run-local.sh --rabbitmq-vhost exited {script.ExitCode}: {printed}");
        }

        return printed;
    }

    /// <summary>The input component of <paramref name="queue"/> in components-bindings/.</summary>
    public static DaprComponent InputComponent(string queue) =>
        DaprComponent.LoadFolder(ComponentsFolder).Single(c => c["direction"] == "input" && c["queueName"] == queue);

    /// <summary>The vhost a component connects to: the path of its <c>host</c>.</summary>
    public static string VhostOf(DaprComponent component) =>
        Uri.UnescapeDataString(new Uri(component["host"]!).AbsolutePath.TrimStart('/'));
}
