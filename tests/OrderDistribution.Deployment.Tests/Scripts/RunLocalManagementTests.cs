namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Before it starts RabbitMQ, scripts/run-local.sh enables the management plugin with the installed rabbitmq-plugins,
/// offline, in the plugins file the node reads at start (order-load reads the queue depths from its API).
/// </summary>
public sealed class RunLocalManagementTests
{
    [RequiresProgramFact("rabbitmq-plugins", "apt-get install rabbitmq-server")]
    public void Run_local_enables_rabbitmqs_management_plugin_in_the_file_the_node_starts_with()
    {
        var folder = Directory.CreateTempSubdirectory("rabbitmq-plugins-").FullName;
        try
        {
            var plugins = Path.Combine(folder, "enabled_plugins");
            File.WriteAllText(plugins, "[].");
            var (exitCode, output) = Repo.Run("env", $"HOME={folder}", $"RABBITMQ_ENABLED_PLUGINS_FILE={plugins}",
                "bash", "scripts/run-local.sh", "--rabbitmq-management");

            Assert.Equal(0, exitCode);
            Assert.DoesNotContain("WARNING", output, StringComparison.Ordinal);
            Assert.Equal("[rabbitmq_management].", File.ReadAllText(plugins).Trim());
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_says_in_one_line_when_the_plugin_cannot_be_enabled_and_goes_on()
    {
        var folder = Directory.CreateTempSubdirectory("rabbitmq-plugins-").FullName;
        try
        {
            var (exitCode, output) = Repo.Run("env", $"HOME={folder}",
                $"RABBITMQ_ENABLED_PLUGINS_FILE={Path.Combine(folder, "missing", "enabled_plugins")}",
                "bash", "scripts/run-local.sh", "--rabbitmq-management");

            Assert.Equal(0, exitCode);
            Assert.Equal(
                "WARNING: rabbitmq-plugins could not enable rabbitmq_management: " +
                "order-load reads the queue depths with rabbitmqctl every 10 s",
                output.Trim());
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
