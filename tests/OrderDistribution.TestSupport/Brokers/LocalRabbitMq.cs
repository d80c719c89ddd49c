using System.Diagnostics;
using OrderDistribution.TestSupport.Components;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// RabbitMQ as the local bindings model meets it: the vhost made with scripts/run-local.sh's own rabbitmqctl calls
/// (<c>--rabbitmq-vhost-commands</c>), and the settings of the components in components-bindings/.
/// </summary>
public static class LocalRabbitMq
{
    public const string ComponentsFolder = "components-bindings";

    /// <summary>Makes the vhost on <paramref name="rabbit"/> with the script's calls, in its order.</summary>
    public static async Task MakeVhostAsync(RabbitMqServer rabbit)
    {
        foreach (var command in VhostCommands())
        {
            await rabbit.ControlAsync(command.Split(' ', StringSplitOptions.RemoveEmptyEntries));
        }
    }

    /// <summary>The input component of <paramref name="queue"/> in components-bindings/.</summary>
    public static DaprComponent InputComponent(string queue) =>
        DaprComponent.LoadFolder(ComponentsFolder).Single(c => c["direction"] == "input" && c["queueName"] == queue);

    /// <summary>The vhost a component connects to: the path of its <c>host</c>.</summary>
    public static string VhostOf(DaprComponent component) =>
        Uri.UnescapeDataString(new Uri(component["host"]!).AbsolutePath.TrimStart('/'));

    private static List<string> VhostCommands()
    {
        var start = new ProcessStartInfo("bash") { RedirectStandardOutput = true, WorkingDirectory = RepositoryRoot.Path };
        start.ArgumentList.Add("scripts/run-local.sh");
        start.ArgumentList.Add("--rabbitmq-vhost-commands");
        using var script = Process.Start(start)!;
        var lines = script.StandardOutput.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        script.WaitForExit();
        if (script.ExitCode != 0 || lines.Count == 0)
        {
            throw new InvalidOperationException($"scripts/run-local.sh --rabbitmq-vhost-commands exited {script.ExitCode} with {lines.Count} lines");
        }

        return lines;
    }
}
